//! The protocol loop: UCCI and UCI as GUIs really speak them, on one tolerant reader.
//!
//! Data flows one way: a reader thread (`input.rs`) turns input into lines on a channel, with
//! a bound on what one line can cost; the main loop parses each line into a [`Command`]
//! (`command.rs`) and drives the [`Engine`]; the search reports through a listener that
//! formats per dialect (`output.rs`) and writes through the one shared, locked, flushed
//! `Out`. Because the search runs on its own thread, `isready`,
//! `stop`, `ponderhit` and `quit` are answered mid-search.
//!
//! The first of `uci`/`ucci` picks the dialect (the last one wins if both come). The engine
//! (and its hash table) is built on a thread of its own once the handshake is answered, so
//! the handshake is not delayed by it; the first command that needs the engine waits for it.
//!
//! Bad input never ends the loop: it is reported with `info string` and the last valid state
//! is kept. Input shown back in a report goes through [`echo::echo`] (short, control
//! characters escaped).

pub mod command;
pub mod echo;
pub mod input;
pub mod options;
pub mod output;
pub mod wdl;
mod wdl_fit;

pub use command::{Command, CommandError, GoParams, PositionSpec};
pub use output::Dialect;

use crate::board::movegen::legal_moves;
use crate::board::position::Position;
use crate::board::types::{Color, Move};
use crate::engine::book::Book;
use crate::engine::files::{read_eval_params, read_network, read_search_params};
use crate::engine::{Engine, Listener, SearchEvent};
use crate::eval::nnue::architecture;
use crate::eval::Tables;
use crate::search::params::SearchParams;
use crate::search::time::Limits;
use crate::search::SearchResult;
use echo::{echo, info_text};
use input::Input;
use options::OptionChange;
use output::{InfoStyle, Verdict, VerdictInput};
use parking_lot::Mutex;
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

struct Sink {
    w: Box<dyn Write + Send>,
    /// A `go` whose `bestmove` has not been written yet.
    pending: bool,
}

/// The single writer to the GUI: every line is written whole and flushed at once.
#[derive(Clone)]
struct Out(Arc<Mutex<Sink>>);

impl Out {
    fn send<S: AsRef<str>>(&self, lines: &[S]) {
        let mut s = self.0.lock();
        Self::write(&mut s, lines);
    }

    fn write<S: AsRef<str>>(s: &mut Sink, lines: &[S]) {
        for l in lines {
            // A closed pipe means the GUI is gone; the reader will see end of input.
            let _ = writeln!(s.w, "{}", l.as_ref());
        }
        let _ = s.w.flush();
    }

    fn line(&self, line: &str) {
        self.send(&[line]);
    }

    fn begin_search(&self) {
        self.0.lock().pending = true;
    }

    /// Write a search's final lines and mark it answered (atomically, for `stop`).
    fn end_search(&self, lines: &[String]) {
        let mut s = self.0.lock();
        Self::write(&mut s, lines);
        s.pending = false;
    }

    /// `stop`: true when a search is still to answer; otherwise answers an idle `stop`.
    fn stop(&self, d: Dialect) -> bool {
        let mut s = self.0.lock();
        if s.pending {
            return true;
        }
        if d == Dialect::Ucci {
            Self::write(&mut s, &["nobestmove"]);
        }
        false
    }
}

/// The engine: not yet built, being built on a thread, or ready.
enum Slot {
    NotStarted,
    Starting(JoinHandle<Engine>),
    Ready(Box<Engine>),
    Empty,
}

/// A `go perft` counting on a thread of its own, so that the loop still reads `stop`.
struct PerftJob {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// Whether the loop goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// The settings only the protocol layer uses; the engine never sees them.
#[derive(Clone, Copy, Debug)]
pub struct ProtocolSettings {
    /// UCCI `go time …` in milliseconds (true) or seconds (false): `usemillisec`.
    pub use_millisec: bool,
    /// Add `wdl W D L` to UCI info lines: `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// May the engine resign a lost game (UCCI `resign`).
    pub may_resign: bool,
}

impl ProtocolSettings {
    /// At the start of a session (and what the handshake announces).
    pub const DEFAULT: ProtocolSettings = ProtocolSettings {
        use_millisec: true,
        show_wdl: false,
        may_resign: false,
    };
}

/// One GUI session: the dialect, protocol-only settings and the engine.
struct Session {
    dialect: Dialect,
    slot: Slot,
    out: Out,
    settings: ProtocolSettings,
    /// The opponent offered a draw (`go draw`, `ponderhit draw`); read when the move is sent.
    draw_offered: Arc<AtomicBool>,
    reported_unknown: HashSet<String>,
    perft: Option<PerftJob>,
}

/// Run the protocol loop until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let rx = input::spawn(input);
    let mut session = Session {
        dialect: Dialect::default(),
        slot: Slot::NotStarted,
        out: Out(Arc::new(Mutex::new(Sink {
            w: Box::new(output),
            pending: false,
        }))),
        settings: ProtocolSettings::DEFAULT,
        draw_offered: Arc::new(AtomicBool::new(false)),
        reported_unknown: HashSet::new(),
        perft: None,
    };
    let mut quit = false;
    for item in rx.iter() {
        let flow = match item {
            Input::Line(line) => session.handle(&line),
            Input::TooLong(len) => {
                session.info_string(&format!(
                    "an input line of {len} bytes is longer than {} bytes; ignored",
                    input::MAX_LINE_BYTES
                ));
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            quit = true;
            break;
        }
    }
    session.shutdown();
    if quit && session.dialect == Dialect::Ucci {
        session.out.line("bye");
    }
}

impl Session {
    /// Build the engine (and its hash table) in the background, once.
    fn prepare_engine(&mut self) {
        if let Slot::NotStarted = self.slot {
            self.slot = Slot::Starting(std::thread::spawn(Engine::for_gui));
        }
    }

    fn engine(&mut self) -> &mut Engine {
        if let Slot::NotStarted = self.slot {
            self.slot = Slot::Ready(Box::new(Engine::for_gui()));
        }
        if let Slot::Starting(_) = self.slot {
            let Slot::Starting(h) = std::mem::replace(&mut self.slot, Slot::Empty) else {
                unreachable!()
            };
            let engine = h.join().unwrap_or_else(|_| Engine::for_gui());
            self.slot = Slot::Ready(Box::new(engine));
        }
        match &mut self.slot {
            Slot::Ready(e) => e,
            _ => unreachable!("the engine is ready after joining"),
        }
    }

    fn info_string(&self, text: &str) {
        self.out.line(&format!("info string {}", info_text(text)));
    }

    fn handle(&mut self, line: &str) -> Flow {
        let cmd = match line.parse::<Command>() {
            Ok(c) => c,
            Err(CommandError::Empty) => return Flow::Continue,
            Err(CommandError::Unknown(w)) => {
                let w = echo(&w);
                // Each unknown word once (the set is bounded: garbage can be endless).
                if self.reported_unknown.len() >= MAX_REPORTED_UNKNOWN {
                    self.reported_unknown.clear();
                }
                if self.reported_unknown.insert(w.clone()) {
                    self.info_string(&format!("unknown command '{w}' ignored"));
                }
                return Flow::Continue;
            }
            Err(e) => {
                self.info_string(&format!("{e}; ignored"));
                return Flow::Continue;
            }
        };
        match cmd {
            Command::Uci => self.handshake(Dialect::Uci),
            Command::Ucci => self.handshake(Dialect::Ucci),
            Command::IsReady => {
                self.engine();
                self.out.line("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position(spec) => {
                let fen = spec.fen.as_deref();
                if let Err(e) = self.engine().set_position(fen, &spec.moves) {
                    self.info_string(&format!("{e}; position unchanged"));
                }
            }
            Command::BanMoves(moves) => {
                if let Err(e) = self.engine().ban_moves(&moves) {
                    self.info_string(&format!("banmoves: {e}; banned moves unchanged"));
                }
            }
            Command::NewGame => self.engine().new_game(),
            Command::Go(g) => self.go(*g),
            Command::Stop => {
                if self.end_perft() {
                    // The perft's own report answers this `stop`.
                } else if self.out.stop(self.dialect) {
                    self.engine().stop();
                }
            }
            Command::PonderHit { draw } => {
                if draw {
                    self.draw_offered.store(true, Ordering::SeqCst);
                }
                self.engine().ponderhit();
            }
            Command::Probe(spec) => self.probe(spec),
            Command::Display => {
                let engine = self.engine();
                let pos = engine.position();
                let text = pos.to_string();
                let book = output::book_status(
                    &engine.book().moves(pos),
                    &engine.book().candidates(pos),
                    engine.options.use_book,
                );
                let strength = output::strength_status(&engine.options.strength);
                let mut lines: Vec<&str> = text.lines().collect();
                lines.push(&book);
                lines.push(&strength);
                self.out.send(&lines);
            }
            Command::Ignored => {}
            Command::Quit => return Flow::Quit,
        }
        Flow::Continue
    }

    fn handshake(&mut self, d: Dialect) {
        self.dialect = d;
        self.out.send(&output::handshake(d));
        // Only now: allocating the hash table must not delay the handshake.
        self.prepare_engine();
    }

    /// Stop any search (its `bestmove` is written) or perft and wait for it.
    fn shutdown(&mut self) {
        self.end_perft();
        if let Slot::Ready(e) = &mut self.slot {
            e.stop();
            e.wait();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let spec = options::lookup(name);
        let name = &echo(name);
        let Some(spec) = spec else {
            self.info_string(&format!("unknown option '{name}' ignored"));
            return;
        };
        match spec.parse(value) {
            Ok(change) => self.apply(name, change),
            Err(e) => self.info_string(&format!("option '{name}': {e}; unchanged")),
        }
    }

    /// Apply a checked option (`name` as the GUI spelled it, for reports).
    fn apply(&mut self, name: &str, change: OptionChange) {
        match change {
            OptionChange::Hash(mb) => {
                if let Err(e) = self.engine().set_hash_mb(mb) {
                    self.info_string(&format!("option '{name}': {e}"));
                }
            }
            OptionChange::Threads(n) => self.engine().set_threads(n),
            OptionChange::MultiPv(n) => self.engine().options.search.multipv = n,
            OptionChange::Contempt(n) => self.engine().options.search.contempt = n,
            OptionChange::MoveOverhead(d) => self.engine().options.move_overhead = d,
            OptionChange::ClearHash => self.engine().clear_hash(),
            OptionChange::NewGame => self.engine().new_game(),
            OptionChange::ShowWdl(b) => self.settings.show_wdl = b,
            OptionChange::UseMillisec(b) => self.settings.use_millisec = b,
            OptionChange::Resign(b) => self.settings.may_resign = b,
            OptionChange::UseBook(b) => self.engine().options.use_book = b,
            OptionChange::BookFile(path) => self.set_book_file(name, &path),
            OptionChange::BookVariety(v) => self.engine().options.book_policy.variety = v,
            OptionChange::BookSeed(seed) => self.engine().seed_book(seed),
            OptionChange::UseNetwork(on) => self.engine().set_use_network(on),
            OptionChange::EvalFile(path) => self.set_eval_file(name, &path),
            OptionChange::EvalParams(path) => self.set_eval_params(name, &path),
            OptionChange::SearchParams(path) => self.set_search_params(name, &path),
            OptionChange::Rules(rules) => self.engine().options.search.rules = rules,
            OptionChange::LimitStrength(b) => self.engine().options.strength.limit = b,
            OptionChange::Elo(elo) => self.engine().options.strength.elo = elo,
            OptionChange::SkillLevel(n) => self.engine().options.strength.skill_level = n,
            // Ponder needs nothing from us (the GUI sends `go ponder`); the rest is accepted.
            OptionChange::Ponder(_) | OptionChange::Accepted => {}
        }
    }

    /// `BookFile`: a book file of any kind the engine reads (see `engine::book`); no file
    /// (empty, `<empty>`) means the built-in book. A file that is no usable book (a wrong
    /// file: empty, broken, any other text) leaves the book as it was; a text book with some
    /// unusable lines is loaded without them, and says so.
    fn set_book_file(&mut self, name: &str, path: &str) {
        if path.is_empty() {
            self.engine().set_book(Book::built_in());
            return;
        }
        let what = format!("option '{name}': book file '{}'", echo(path));
        if let Err(why) = check_regular_file(path) {
            self.info_string(&format!("{what} {why}; keeping the current book"));
            return;
        }
        let opened = match Book::open(std::path::Path::new(path)) {
            Ok(opened) => opened,
            Err(why) => {
                self.info_string(&format!("{what} {why}; keeping the current book"));
                return;
            }
        };
        if let Some((used, skipped, first)) = &opened.skipped {
            self.info_string(&format!(
                "{what}: {} loaded, {} skipped ({first})",
                plural(*used, "opening line"),
                plural(*skipped, "line"),
            ));
        }
        self.engine().set_book(opened.book);
    }

    /// `EvalFile`: a network file (`eval::nnue::network` documents the format); no file
    /// (empty, `<empty>`) means the built-in network. A network that loads evaluates from the
    /// next search on (while `Use NNUE` is on), and says so; a file that is none (missing,
    /// truncated, another format or architecture) is reported and the network stays as it was.
    fn set_eval_file(&mut self, name: &str, path: &str) {
        if path.is_empty() {
            self.engine().set_network(None);
            return;
        }
        let what = format!("option '{name}': network file '{}'", echo(path));
        match read_network(std::path::Path::new(path)) {
            Ok(net) => {
                self.engine().set_network(Some(Arc::new(net)));
                let evaluates = if self.engine().options.search.use_network {
                    "the network evaluates"
                } else {
                    "it evaluates once Use NNUE is on"
                };
                self.info_string(&format!("{what} loaded: {evaluates}, {}", architecture()));
            }
            Err(why) => {
                let kept = match self.engine().options.search.network {
                    Some(_) => "the network loaded before",
                    None => "the built-in network",
                };
                self.info_string(&format!("{what} {why}; keeping {kept}"));
            }
        }
    }

    /// `EvalParams`: the classical evaluation's numbers from a parameter file (the format of
    /// `eval::Params`; names left out keep their built-in values); no file means the
    /// built-in numbers. A file that does not read is reported and the numbers stay as they were.
    fn set_eval_params(&mut self, name: &str, path: &str) {
        if path.is_empty() {
            self.engine().set_eval_tables(None);
            return;
        }
        let what = format!("option '{name}': parameter file '{}'", echo(path));
        match read_eval_params(std::path::Path::new(path)) {
            Ok(params) => {
                self.engine()
                    .set_eval_tables(Some(Arc::new(Tables::new(params))));
                let evaluates = if self.engine().options.search.use_network {
                    "its numbers evaluate once Use NNUE is off"
                } else {
                    "the classical evaluation uses its numbers"
                };
                self.info_string(&format!("{what} loaded: {evaluates}"));
            }
            Err(why) => {
                let kept = match self.engine().options.search.eval {
                    Some(_) => "the numbers loaded before",
                    None => "the built-in numbers",
                };
                self.info_string(&format!("{what} {}; keeping {kept}", echo(&why)));
            }
        }
    }

    /// `SearchParams`: the search's margins and reductions from a parameter file (the format of
    /// `search::params::SearchParams`; names left out keep their built-in values); no file means
    /// the built-in numbers. A file that does not read, or names a value out of its range, is
    /// reported and the numbers stay as they were.
    fn set_search_params(&mut self, name: &str, path: &str) {
        if path.is_empty() {
            self.engine().options.search.params = SearchParams::DEFAULT;
            return;
        }
        let what = format!("option '{name}': parameter file '{}'", echo(path));
        match read_search_params(std::path::Path::new(path)) {
            Ok(params) => {
                self.engine().options.search.params = params;
                self.info_string(&format!("{what} loaded: the search uses its numbers"));
            }
            Err(why) => {
                let kept = if self.engine().options.search.params == SearchParams::DEFAULT {
                    "the built-in numbers"
                } else {
                    "the numbers loaded before"
                };
                self.info_string(&format!("{what} {}; keeping {kept}", echo(&why)));
            }
        }
    }

    /// One `info string` for a list of problems (a line of garbage must not flood the GUI).
    fn report_problems(&self, problems: &[String]) {
        const SHOWN: usize = 5;
        if problems.is_empty() {
            return;
        }
        let mut text = problems[..problems.len().min(SHOWN)].join("; ");
        if problems.len() > SHOWN {
            text.push_str(&format!("; and {} more", problems.len() - SHOWN));
        }
        self.info_string(&format!("{text}; ignored"));
    }

    fn go(&mut self, g: GoParams) {
        self.report_problems(&g.problems);
        if let Some(depth) = g.perft {
            self.perft(depth);
            return;
        }
        self.end_perft();
        let dialect = self.dialect;
        let ProtocolSettings {
            use_millisec,
            show_wdl,
            may_resign,
        } = self.settings;
        let engine = self.engine();
        // Answer any running search first, so that its `bestmove` cannot be mistaken for ours.
        engine.stop();
        engine.wait();
        let root = engine.position().clone();
        let multipv = engine.options.search.multipv > 1;
        let (limits, problems) = limits_for(&g, &root, use_millisec);
        self.report_problems(&problems);
        self.draw_offered.store(g.draw, Ordering::SeqCst);
        let mated = legal_moves(&root).is_empty();
        let out = self.out.clone();
        let draw_offered = Arc::clone(&self.draw_offered);
        let style = InfoStyle {
            dialect,
            show_wdl,
            multipv,
            material: wdl::material(&root),
        };
        let listener: Listener = Arc::new(move |event| match event {
            SearchEvent::Info(i) => out.line(&output::info(style, &i)),
            SearchEvent::Book(b) => out.line(&output::book_move(&b)),
            SearchEvent::BestMove(SearchResult {
                best,
                ponder,
                score,
                ..
            }) => {
                let verdict = if dialect == Dialect::Ucci {
                    output::verdict(VerdictInput {
                        score,
                        draw_offered: draw_offered.load(Ordering::SeqCst),
                        may_resign,
                        fullmove: root.fullmove(),
                        quiet_plies: root.rule60(),
                    })
                } else {
                    Verdict::Play
                };
                // UCCI's draw/resign need a ponder move to stand behind.
                let ponder = match (ponder, best) {
                    (None, Some(b)) if verdict != Verdict::Play => any_reply(&root, b),
                    _ => ponder,
                };
                out.end_search(&output::bestmove(dialect, best, ponder, verdict, mated));
            }
        });
        self.out.begin_search();
        self.engine().go(limits, listener);
    }

    /// `go perft N`: the divide and the total, counted on a thread of its own like a search,
    /// so that `stop`, `isready` and `quit` are answered meanwhile. A stopped count says so in
    /// one line (no partial total that could pass for the real one).
    fn perft(&mut self, depth: u32) {
        if !(1..=12).contains(&depth) {
            self.info_string(&format!("go perft: depth {depth} out of range 1..12"));
            return;
        }
        self.end_perft();
        let engine = self.engine();
        // Answer any running search first, as a new `go` does.
        engine.stop();
        engine.wait();
        let mut pos = engine.position().clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let out = self.out.clone();
        let count = move || {
            let start = Instant::now();
            let root_moves = legal_moves(&pos).len();
            let rows = crate::board::perft::divide_until(&mut pos, depth, &|| {
                stopped.load(Ordering::Relaxed)
            });
            let elapsed = start.elapsed();
            let total: u64 = rows.iter().map(|(_, n)| n).sum();
            if rows.len() < root_moves {
                out.line(&format!(
                    "info string perft {depth} stopped after {} ms: {} of {root_moves} root \
                     moves counted",
                    elapsed.as_millis(),
                    rows.len()
                ));
                return;
            }
            let mut lines: Vec<String> = rows.iter().map(|(m, n)| format!("{m}: {n}")).collect();
            lines.push(String::new());
            lines.push(format!("Nodes searched: {total}"));
            let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
            lines.push(format!(
                "info string perft {depth}: {total} nodes in {} ms, {nps} nodes/second",
                elapsed.as_millis()
            ));
            out.send(&lines);
        };
        match std::thread::Builder::new()
            .name("perft".into())
            .spawn(count)
        {
            Ok(handle) => self.perft = Some(PerftJob { stop, handle }),
            Err(_) => self.info_string("go perft: cannot start a thread for it"),
        }
    }

    /// Stop a `go perft` and wait for its report; true when one was still counting.
    fn end_perft(&mut self) -> bool {
        let Some(job) = self.perft.take() else {
            return false;
        };
        let running = !job.handle.is_finished();
        job.stop.store(true, Ordering::Relaxed);
        let _ = job.handle.join();
        running
    }

    fn probe(&mut self, spec: Option<PositionSpec>) {
        let pos = match spec {
            None => self.engine().position().clone(),
            Some(s) => match s.play() {
                Ok(p) => p,
                Err(e) => {
                    self.info_string(&format!("probe: {e}"));
                    return;
                }
            },
        };
        let entry = self.engine().probe_hash(&pos);
        self.out.line(&output::pophash(entry));
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Distinct unknown command words remembered (each is reported once).
const MAX_REPORTED_UNKNOWN: usize = 256;

/// "1 line", "2 lines".
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Refuse a path that is no regular file, in our own words (see `output::file_problem`).
fn check_regular_file(path: &str) -> Result<(), String> {
    let meta = std::fs::metadata(path).map_err(|e| output::file_problem(&e))?;
    if meta.is_dir() {
        return Err("is a directory".into());
    }
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    Ok(())
}

/// Some legal reply after `best`, to carry UCCI's `draw`/`resign` when the PV is one move.
fn any_reply(root: &Position, best: Move) -> Option<Move> {
    let mut pos = root.clone();
    if !pos.is_legal_move(best) {
        return None;
    }
    pos.make_move(best);
    legal_moves(&pos).as_slice().first().copied()
}

/// Turn `go` words into search limits for the side to move. UCCI clock words (`time`,
/// `increment`, …) are milliseconds, or seconds when `usemillisec` is off; UCI's (`wtime`, …)
/// are milliseconds and `w` is Red. `go` with no limit at all searches until `stop`.
fn limits_for(g: &GoParams, pos: &Position, use_millisec: bool) -> (Limits, Vec<String>) {
    let ucci_unit =
        |v: f64| Duration::from_millis(if use_millisec { v } else { v * 1000.0 }.round() as u64);
    let (time, increment) = match g.time {
        Some(t) => (
            Some(ucci_unit(t)),
            g.increment.map(ucci_unit).unwrap_or_default(),
        ),
        None => {
            let (t, inc) = match pos.side_to_move() {
                Color::Red => (g.wtime, g.winc),
                Color::Black => (g.btime, g.binc),
            };
            (
                t.map(Duration::from_millis),
                Duration::from_millis(inc.unwrap_or(0)),
            )
        }
    };
    let mut problems = Vec::new();
    let mut search_moves = Vec::new();
    for text in &g.search_moves {
        match pos.parse_move(text) {
            Ok(m) => search_moves.push(m),
            Err(e) => problems.push(format!("go searchmoves: {e}")),
        }
    }
    let mut limits = Limits {
        time,
        increment,
        moves_to_go: g.movestogo.filter(|&n| n > 0),
        movetime: g.movetime.map(Duration::from_millis),
        depth: g.depth.map(|d| d.max(1)),
        nodes: g.nodes,
        mate: g.mate,
        infinite: g.infinite,
        ponder: g.ponder,
        search_moves,
    };
    if !limits.ponder && limits.is_unbounded() {
        limits.infinite = true;
    }
    (limits, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(s: &str) -> GoParams {
        match s.parse::<Command>() {
            Ok(Command::Go(g)) => *g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn clocks_follow_the_side_and_the_unit() {
        let red = Position::startpos();
        let black = PositionSpec {
            fen: None,
            moves: vec!["h2e2".into()],
        }
        .play()
        .unwrap();
        let g = go("go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5");
        let (l, _) = limits_for(&g, &red, true);
        assert_eq!(l.time, Some(Duration::from_millis(1000)));
        assert_eq!(l.increment, Duration::from_millis(10));
        assert_eq!(l.moves_to_go, Some(5));
        let (l, _) = limits_for(&g, &black, true);
        assert_eq!(l.time, Some(Duration::from_millis(2000)));
        assert_eq!(l.increment, Duration::from_millis(20));
        let g = go("go time 60 increment 2 opptime 50");
        let (l, _) = limits_for(&g, &black, false);
        assert_eq!(l.time, Some(Duration::from_secs(60)));
        assert_eq!(l.increment, Duration::from_secs(2));
        let (l, _) = limits_for(&g, &black, true);
        assert_eq!(l.time, Some(Duration::from_millis(60)));
        assert!(!l.infinite);
    }

    #[test]
    fn bare_go_is_infinite_and_searchmoves_are_checked() {
        let pos = Position::startpos();
        let (l, _) = limits_for(&go("go"), &pos, true);
        assert!(l.infinite);
        let (l, _) = limits_for(&go("go draw"), &pos, true);
        assert!(l.infinite);
        let (l, _) = limits_for(&go("go ponder"), &pos, true);
        assert!(!l.infinite && l.ponder);
        let (l, _) = limits_for(&go("go depth 0"), &pos, true);
        assert_eq!(l.depth, Some(1));
        let (l, problems) = limits_for(&go("go depth 3 searchmoves h2e2 a0a5 b2b8"), &pos, true);
        assert_eq!(l.search_moves.len(), 1);
        assert_eq!(problems.len(), 2);
    }

    #[test]
    fn a_reply_exists_after_an_ordinary_move() {
        let pos = Position::startpos();
        let m = pos.parse_move("h2e2").unwrap();
        assert!(any_reply(&pos, m).is_some());
    }
}
