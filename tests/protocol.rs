//! Protocol sessions against the built binary, in both dialects: handshakes, options,
//! positions, every kind of `go`, `stop`/`ponderhit`/`isready` mid-search, `banmoves`, positions
//! without a legal move, the GUI quirks of `shared/docs/protocol.md`, and bad input. Each test
//! scripts a session and asserts the replies; moves are checked for legality with the library.
//!
//! Time bounds here are generous on purpose (CI shares two cores): they catch a hung or
//! ignored command, not a slow one. Latency is measured by `scripts/latency.py`.

mod common;
use chuhan::board::movegen::legal_moves;
use chuhan::board::position::Position;
use common::START_FAILURE;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

const LONG: Duration = Duration::from_secs(20);

/// A running engine and everything it has said.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<String>,
    log: Vec<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chuhan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start chuhan");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            rx,
            log: Vec::new(),
        }
    }

    /// Start and shake hands in a dialect.
    fn with(dialect: &str) -> Session {
        let mut s = Session::start();
        s.send(dialect);
        s.expect_line(&format!("{dialect}ok"));
        s
    }

    fn send_raw(&mut self, text: &str) {
        self.log.push(format!(">> {text:?}"));
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, line: &str) {
        self.send_raw(&format!("{line}\n"));
    }

    fn next(&mut self, deadline: Instant) -> Option<String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(l) => {
                self.log.push(l.clone());
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that satisfies `pred`.
    fn expect_within(
        &mut self,
        what: &str,
        pred: impl Fn(&str) -> bool,
        t: Duration,
    ) -> Vec<String> {
        let deadline = Instant::now() + t;
        let mut seen = Vec::new();
        while let Some(l) = self.next(deadline) {
            let done = pred(&l);
            seen.push(l);
            if done {
                return seen;
            }
        }
        panic!("no {what} within {t:?}; session:\n{}", self.log.join("\n"));
    }

    fn expect(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<String> {
        self.expect_within(what, pred, LONG)
    }

    fn expect_line(&mut self, exact: &str) -> Vec<String> {
        self.expect(exact, |l| l == exact)
    }

    /// Lines up to the final answer of a search.
    fn bestmove(&mut self) -> Vec<String> {
        self.expect("bestmove", |l| {
            l.starts_with("bestmove") || l == "nobestmove"
        })
    }

    /// Everything said until `readyok`, which must come (the engine is alive and answering).
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut v = self.expect_line("readyok");
        v.pop();
        v
    }

    /// Lines that arrive within `t`.
    fn quiet(&mut self, t: Duration) -> Vec<String> {
        let deadline = Instant::now() + t;
        let mut v = Vec::new();
        while let Some(l) = self.next(deadline) {
            v.push(l);
        }
        v
    }

    fn exits_within(&mut self, t: Duration) -> bool {
        let deadline = Instant::now() + t;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        false
    }

    fn dump(&self) -> String {
        self.log.join("\n")
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn position(fen: Option<&str>, moves: &[&str]) -> Position {
    let mut p = match fen {
        Some(f) => Position::from_fen(f).unwrap(),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = p.parse_move(m).unwrap();
        p.make_move(mv);
    }
    p
}

/// The move of a `bestmove` line (panics on `(none)` or a malformed line).
fn best_of(line: &str) -> String {
    let w: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(w[0], "bestmove", "{line}");
    w[1].to_string()
}

fn assert_legal(pos: &Position, line: &str) {
    let m = best_of(line);
    assert!(
        pos.parse_move(&m).is_ok(),
        "illegal bestmove {m} in {pos:?}"
    );
    if let Some(i) = line.split_whitespace().position(|w| w == "ponder") {
        let p = line.split_whitespace().nth(i + 1).unwrap();
        let mut after = pos.clone();
        after.make_move(pos.parse_move(&m).unwrap());
        assert!(after.parse_move(p).is_ok(), "illegal ponder {p} in {line}");
    }
}

fn count(lines: &[String], pred: impl Fn(&str) -> bool) -> usize {
    lines.iter().filter(|l| pred(l)).count()
}

fn is_final(l: &str) -> bool {
    l.starts_with("bestmove") || l == "nobestmove"
}

/// Black to move is mated; Red's rooks on a8 and b0 mate in one from the Red side.
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w";
const MATED_IN_TWO: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 b";
/// Red to move, in check, no legal move.
const CHECKMATED: &str = "5k3/9/9/9/9/9/9/9/r8/r3K4 w";
/// Red to move, not in check, no legal move (困毙: a loss).
const STALEMATED: &str = "3k5/9/9/9/3r5/9/9/6n2/9/4K4 w";
/// Red has exactly two legal moves: e0f0 and i9h9.
const TWO_MOVES: &str = "3k4P/9/9/9/3r5/9/9/9/r8/4K4 w";

#[test]
fn uci_handshake_and_quit() {
    let mut s = Session::start();
    s.send("uci");
    let lines = s.expect_line("uciok");
    assert!(lines[0].starts_with("id name Chuhan"), "{lines:?}");
    assert!(!lines[0].starts_with("id name Fairy-Stockfish"));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for opt in [
        "option name Hash type spin",
        "option name Threads type spin",
        "option name Clear Hash type button",
        "option name Ponder type check",
        "option name MultiPV type spin",
        "option name Contempt type spin",
        "option name Move Overhead type spin",
        "option name UCI_ShowWDL type check",
        "option name Use NNUE type check default true",
        "option name EvalFile type string",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "{opt}: {lines:?}");
    }
    assert!(s.sync().is_empty());
    s.send("quit");
    assert!(s.exits_within(LONG), "{}", s.dump());
    assert!(!s.log.iter().any(|l| l == "bye"));
}

#[test]
fn ucci_handshake_and_bye() {
    let mut s = Session::start();
    s.send("ucci");
    let lines = s.expect_line("ucciok");
    assert!(lines[0].starts_with("id name Chuhan"));
    for opt in [
        "option usemillisec type check default true",
        "option hashsize type spin",
        "option threads type spin",
        "option ponder type check",
        "option contempt type spin",
        "option newgame type button",
        "option usennue type check default true",
        "option evalfile type string",
        "option evalparams type string",
        "option searchparams type string",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(opt)), "{opt}: {lines:?}");
    }
    assert!(!lines.iter().any(|l| l.starts_with("option name")));
    s.send("quit");
    s.expect_line("bye");
    assert!(s.exits_within(LONG));
}

#[test]
fn both_handshakes_are_answered_and_the_last_wins() {
    let mut s = Session::start();
    s.send("uci");
    s.send("ucci");
    s.expect_line("uciok");
    s.expect_line("ucciok");
    // UCCI now: an idle stop is answered with nobestmove.
    s.send("stop");
    s.expect_line("nobestmove");
    s.send("quit");
    s.expect_line("bye");
}

#[test]
fn unexpected_first_lines_do_not_end_the_engine() {
    let mut s = Session::start();
    s.send("xboard");
    s.send("protover 2");
    s.send("xboard");
    s.send("uci");
    let lines = s.expect_line("uciok");
    let reports = count(&lines, |l| {
        l.starts_with("info string") && l.contains("xboard")
    });
    assert_eq!(reports, 1, "an unknown command is reported once: {lines:?}");
    assert!(lines.iter().any(|l| l.contains("protover")));
}

#[test]
fn uci_go_depth_reports_and_moves() {
    let mut s = Session::with("uci");
    s.send("position startpos moves h2e2 h9g7");
    s.send("go depth 4");
    let lines = s.bestmove();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for i in &infos {
        for key in [
            " seldepth ",
            " multipv 1 ",
            " score cp ",
            " nodes ",
            " nps ",
            " time ",
            " pv ",
        ] {
            assert!(i.contains(key), "{key} missing in {i}");
        }
    }
    assert!(infos.last().unwrap().starts_with("info depth 4 "));
    let pos = position(None, &["h2e2", "h9g7"]);
    assert_legal(&pos, lines.last().unwrap());
    // Exactly one bestmove: nothing more arrives.
    assert_eq!(count(&s.sync(), is_final), 0);
}

#[test]
fn ucci_go_depth_has_bare_scores_and_nps() {
    let mut s = Session::with("ucci");
    s.send("position startpos");
    s.send("go depth 3");
    let lines = s.bestmove();
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty());
    for i in &infos {
        let w: Vec<&str> = i.split_whitespace().collect();
        assert_eq!(w[3], "score", "{i}");
        assert!(w[4].parse::<i32>().is_ok(), "bare score in {i}");
        assert!(i.contains(" nps ") && i.contains(" time ") && i.contains(" nodes "));
        assert!(!i.contains(" cp "));
    }
    assert_legal(&Position::startpos(), lines.last().unwrap());
}

#[test]
fn movetime_and_combined_limits() {
    let mut s = Session::with("uci");
    s.send("position startpos");
    let t = Instant::now();
    s.send("go movetime 300");
    let lines = s.bestmove();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_legal(&Position::startpos(), lines.last().unwrap());
    // Seen in the wild: both words at once; whichever comes first ends the search.
    s.send("go movetime 300 depth 2");
    let lines = s.bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("info depth 3 ")));
}

#[test]
fn uci_clock_for_each_side() {
    let mut s = Session::with("uci");
    s.send("ucinewgame");
    s.send("position startpos moves h2e2");
    let t = Instant::now();
    // Black to move: Black's clock (btime) counts, not Red's hour.
    s.send("go wtime 3600000 btime 1000 winc 0 binc 0");
    let lines = s.bestmove();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_legal(&position(None, &["h2e2"]), lines.last().unwrap());
    s.send("position startpos");
    s.send("go wtime 1000 btime 3600000 movestogo 1");
    let lines = s.bestmove();
    assert_legal(&Position::startpos(), lines.last().unwrap());
}

#[test]
fn ucci_clock_in_milliseconds_by_default_and_seconds_on_request() {
    let mut s = Session::with("ucci");
    s.send("position startpos");
    let t = Instant::now();
    s.send("go time 1000 increment 0 opptime 1000 oppincrement 0");
    let lines = s.bestmove();
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "ms by default: {:?}",
        t.elapsed()
    );
    assert_legal(&Position::startpos(), lines.last().unwrap());
    s.send("setoption usemillisec false");
    let t = Instant::now();
    s.send("go time 1 movestogo 1");
    let lines = s.bestmove();
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert_legal(&Position::startpos(), lines.last().unwrap());
    // The draw-offer form seen in the wild.
    s.send("setoption usemillisec true");
    s.send("go draw time 600 increment 20 opptime 580 oppincrement 20");
    assert_legal(&Position::startpos(), s.bestmove().last().unwrap());
}

#[test]
fn infinite_waits_for_stop_and_answers_isready_meanwhile() {
    let mut s = Session::with("uci");
    s.send("position startpos");
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    let during = s.sync();
    assert_eq!(count(&during, is_final), 0, "{during:?}");
    assert_eq!(count(&s.quiet(Duration::from_millis(200)), is_final), 0);
    let t = Instant::now();
    s.send("stop");
    let lines = s.bestmove();
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        t.elapsed()
    );
    assert_legal(&Position::startpos(), lines.last().unwrap());
    assert_eq!(count(&s.sync(), is_final), 0);
    // A bare `go` is infinite too.
    s.send("go");
    assert_eq!(count(&s.quiet(Duration::from_millis(300)), is_final), 0);
    s.send("stop");
    assert_legal(&Position::startpos(), s.bestmove().last().unwrap());
}

#[test]
fn ponder_then_ponderhit() {
    for dialect in ["uci", "ucci"] {
        let mut s = Session::with(dialect);
        s.send("position startpos moves h2e2 h9g7");
        let clock = if dialect == "uci" {
            "wtime 1000 btime 1000"
        } else {
            "time 1000 opptime 1000"
        };
        s.send(&format!("go ponder {clock}"));
        // The clock does not run while pondering.
        let early = s.quiet(Duration::from_millis(1500));
        assert_eq!(count(&early, is_final), 0, "{dialect}: {early:?}");
        let t = Instant::now();
        s.send("ponderhit");
        let lines = s.bestmove();
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert_legal(&position(None, &["h2e2", "h9g7"]), lines.last().unwrap());
        assert_eq!(count(&s.sync(), is_final), 0, "{}", s.dump());
    }
}

#[test]
fn ponder_then_stop() {
    let mut s = Session::with("uci");
    s.send("position startpos");
    s.send("go ponder wtime 100000 btime 100000");
    std::thread::sleep(Duration::from_millis(200));
    s.send("stop");
    let lines = s.bestmove();
    assert_legal(&Position::startpos(), lines.last().unwrap());
    assert_eq!(count(&s.sync(), is_final), 0);
}

#[test]
fn stop_while_idle() {
    let mut s = Session::with("uci");
    s.send("stop");
    assert_eq!(
        count(&s.sync(), is_final),
        0,
        "UCI: nothing on an idle stop"
    );
    let mut s = Session::with("ucci");
    s.send("stop");
    s.expect_line("nobestmove");
    // After a finished search, cchess's extra stop is idle too.
    s.send("go depth 2");
    s.bestmove();
    s.send("stop");
    s.expect_line("nobestmove");
}

#[test]
fn banmoves_in_both_dialects() {
    for dialect in ["uci", "ucci"] {
        let mut s = Session::with(dialect);
        for (ban, expect) in [("e0f0", "i9h9"), ("i9h9", "e0f0")] {
            s.send(&format!("position fen {TWO_MOVES}"));
            s.send(&format!("banmoves {ban}"));
            s.send("go depth 3");
            let lines = s.bestmove();
            assert_eq!(
                best_of(lines.last().unwrap()),
                expect,
                "{dialect}: {lines:?}"
            );
        }
        // Everything banned: no move to give, but this is no mate.
        s.send(&format!("position fen {TWO_MOVES}"));
        s.send("banmoves e0f0 i9h9");
        s.send("go depth 3");
        let lines = s.bestmove();
        if dialect == "uci" {
            assert_eq!(lines.last().unwrap(), "bestmove (none)");
            assert!(!lines.iter().any(|l| l.contains("mate 0")));
        } else {
            assert_eq!(lines.last().unwrap(), "nobestmove");
        }
        // The next position clears the ban.
        s.send(&format!("position fen {TWO_MOVES}"));
        s.send("go depth 2");
        assert_legal(
            &position(Some(TWO_MOVES), &[]),
            s.bestmove().last().unwrap(),
        );
    }
}

#[test]
fn no_legal_move_uci_and_ucci() {
    for fen in [CHECKMATED, STALEMATED] {
        let mut s = Session::with("uci");
        s.send(&format!("position fen {fen}"));
        s.send("go depth 5");
        let lines = s.bestmove();
        assert_eq!(
            &lines[lines.len() - 2..],
            ["info depth 0 score mate 0", "bestmove (none)"],
            "{fen}"
        );
        // Even an infinite search has nothing to think about, but waits for stop.
        s.send("go infinite");
        assert_eq!(count(&s.quiet(Duration::from_millis(200)), is_final), 0);
        s.send("stop");
        assert_eq!(s.bestmove().last().unwrap(), "bestmove (none)");

        let mut s = Session::with("ucci");
        s.send(&format!("fen {fen}"));
        s.send("go depth 5");
        assert_eq!(s.bestmove().last().unwrap(), "nobestmove", "{fen}");
        assert_eq!(count(&s.sync(), is_final), 0);
    }
}

#[test]
fn mate_scores_per_dialect() {
    let mut s = Session::with("uci");
    s.send(&format!("position fen {MATE_IN_ONE}"));
    s.send("go depth 4");
    let lines = s.bestmove();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains(" score mate 1 "), "{last_info}");
    let mut after = position(Some(MATE_IN_ONE), &[]);
    let m = after.parse_move(&best_of(lines.last().unwrap())).unwrap();
    after.make_move(m);
    assert!(legal_moves(&after).is_empty(), "the move mates");
    s.send(&format!("position fen {MATED_IN_TWO}"));
    s.send("go depth 5");
    let lines = s.bestmove();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    // Mated: a negative count of moves (the search may not yet see the shortest mate).
    assert!(last_info.contains(" score mate -"), "{last_info}");

    let mut s = Session::with("ucci");
    s.send(&format!("position fen {MATE_IN_ONE}"));
    s.send("go depth 4");
    let lines = s.bestmove();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains(" score 29999 "), "{last_info}");
    s.send(&format!("position fen {MATED_IN_TWO}"));
    s.send("go depth 5");
    let lines = s.bestmove();
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    let score: i32 = last_info
        .split_whitespace()
        .nth(4)
        .unwrap()
        .parse()
        .unwrap();
    assert!((-29_998..=-29_000).contains(&score), "{last_info}");
}

#[test]
fn ucci_draws_and_resignation() {
    let mut s = Session::with("ucci");
    // Lost: accept the offered draw (after the ponder move), but do not resign by default.
    s.send(&format!("position fen {MATED_IN_TWO}"));
    s.send("go draw depth 5");
    let last = s.bestmove().pop().unwrap();
    let w: Vec<&str> = last.split_whitespace().collect();
    assert_eq!((w.len(), w[2], w[4]), (5, "ponder", "draw"), "{last}");
    assert_legal(&position(Some(MATED_IN_TWO), &[]), &last);
    // Winning: refuse the draw.
    s.send(&format!("position fen {MATE_IN_ONE}"));
    s.send("go draw depth 3");
    let last = s.bestmove().pop().unwrap();
    assert!(!last.contains("draw") && !last.contains("resign"), "{last}");
    // Resign only when allowed, and only when mated.
    s.send("setoption resign true");
    s.send(&format!("position fen {MATED_IN_TWO}"));
    s.send("go depth 5");
    let last = s.bestmove().pop().unwrap();
    assert!(
        last.ends_with(" resign") && last.contains(" ponder "),
        "{last}"
    );
    s.send("position startpos");
    s.send("go depth 3");
    let last = s.bestmove().pop().unwrap();
    assert!(!last.contains("resign") && !last.contains("draw"), "{last}");
    // A draw offered with the pondered move.
    s.send(&format!("position fen {MATED_IN_TWO}"));
    s.send("setoption resign false");
    s.send("go ponder depth 4");
    std::thread::sleep(Duration::from_millis(100));
    s.send("ponderhit draw");
    let last = s.bestmove().pop().unwrap();
    assert!(last.ends_with(" draw"), "{last}");
}

#[test]
fn uci_wdl_and_multipv() {
    let mut s = Session::with("uci");
    s.send("setoption name UCI_ShowWDL value true");
    s.send("setoption name MultiPV value 3");
    s.send("position startpos");
    s.send("go depth 3");
    let lines = s.bestmove();
    let d3: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    for k in 1..=3 {
        assert!(
            d3.iter().any(|l| l.contains(&format!(" multipv {k} "))),
            "multipv {k}: {lines:?}"
        );
    }
    for l in &d3 {
        let w: Vec<&str> = l.split_whitespace().collect();
        let i = w.iter().position(|x| *x == "wdl").expect("wdl");
        let sum: u32 = w[i + 1..i + 4]
            .iter()
            .map(|x| x.parse::<u32>().unwrap())
            .sum();
        assert_eq!(sum, 1000, "{l}");
    }
}

#[test]
fn options_in_both_forms_and_dialects() {
    let mut s = Session::with("ucci");
    for cmd in [
        "setoption hashsize 16",
        "setoption threads 2",
        "setoption name Hash value 8",
        "setoption name Threads value 1",
        "setoption name Clear Hash",
        "setoption newgame",
        "setoption ponder true",
        "setoption usebook false",
        "setoption bookfiles book/openings.txt",
        "setoption name Repetition Rule value ChineseRule",
        "setoption name Repetition Rule value AsianRule",
        "setoption name Sixty Move Rule value true",
        "setoption name Skill Level value 10",
        "setoption name UCI_Elo value 2000",
        "setoption name UCI_LimitStrength value false",
        "setoption name UCI_Variant value xiangqi",
        "setoption name ScoreType value Elo",
        "setoption name Move Overhead value 50",
        "setoption name MultiPV value 1",
        "setoption batch on",
        "setoption randomness none",
        "setoption HASHSIZE 4",
    ] {
        s.send(cmd);
    }
    let said = s.sync();
    assert!(said.is_empty(), "accepted quietly: {said:?}");
    s.send("go depth 2");
    assert_legal(&Position::startpos(), s.bestmove().last().unwrap());
    s.send("setoption name Frobnicate value 3");
    let said = s.sync();
    assert_eq!(said.len(), 1);
    assert!(said[0].starts_with("info string") && said[0].contains("Frobnicate"));
}

#[test]
fn gui_quirks() {
    let mut s = Session::start();
    // CRLF, blank lines, repeated spaces, upper case.
    s.send_raw("ucci\r\n\r\n   \r\n");
    s.expect_line("ucciok");
    s.send_raw("isready\r\n");
    s.expect_line("readyok");
    // cchess: setoption in UCI form even in UCCI, 2-field FEN, side `r`, E/H letters.
    s.send_raw("setoption name hashsize value 16\r\n");
    s.send_raw("position  fen  rhbakabhr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR  r  moves  h2e2\r\n");
    s.send("d");
    let lines = s.sync();
    let fen = lines
        .iter()
        .find(|l| l.starts_with("FEN: "))
        .expect("d shows the FEN");
    assert_eq!(
        fen,
        "FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    assert!(lines.iter().any(|l| l.starts_with("0 ")), "{lines:?}");
    // UCI-cyclone: no `position` keyword; the same position twice.
    for _ in 0..2 {
        s.send("fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2 h9g7");
    }
    s.send("startpos moves h2e2");
    s.send("d");
    let lines = s.sync();
    assert!(
        lines.iter().any(|l| l.contains("1C2C4/9/RNBAKABNR b")),
        "{lines:?}"
    );
    // The move list may start from the last capture: a 6-field FEN with counters.
    s.send("position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7 b0c2");
    s.send("go depth 2");
    assert_legal(
        &position(None, &["h2e2", "h9g7", "b0c2"]),
        s.bestmove().last().unwrap(),
    );
    // The new-game spellings.
    for cmd in [
        "uccinewgame",
        "ucinewgame",
        "newgame",
        "setoption newgame",
        "setoption name Clear Hash",
    ] {
        s.send(cmd);
    }
    assert!(s.sync().is_empty());
    // probe → pophash, from the table after a search.
    s.send("position startpos");
    s.send("go depth 4");
    let best = best_of(s.bestmove().last().unwrap());
    s.send(&format!("probe startpos moves {best}"));
    let lines = s.expect("pophash", |l| l.starts_with("pophash"));
    let pop = lines.last().unwrap();
    assert!(pop.contains(" bestmove ") && pop.contains("bound"), "{pop}");
    s.send("probe fen 4k4/9/9/9/9/9/9/9/9/3K5 w");
    s.expect_line("pophash");
    // go perft: divide and total.
    s.send("go perft 2");
    let lines = s.expect("perft total", |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
    assert_eq!(count(&lines, |l| l.contains(": ")), 44 + 1);
    // quit mid-search: prompt, with bye.
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let t = Instant::now();
    s.send("quit");
    s.expect_line("bye");
    assert!(s.exits_within(Duration::from_secs(5)));
    assert!(t.elapsed() < Duration::from_secs(5));
}

#[test]
fn perft_runs_like_a_search() {
    // perft 7 from the start takes minutes: every answer below must come while it counts.
    let prompt = Duration::from_secs(10);
    for dialect in ["uci", "ucci"] {
        let mut s = Session::with(dialect);
        s.send("go perft 7");
        s.send("isready");
        s.expect_within("readyok while counting", |l| l == "readyok", prompt);
        s.send("stop");
        let lines = s.expect_within(
            "the stopped perft's report",
            |l| l.starts_with("info string perft 7 stopped"),
            prompt,
        );
        assert_eq!(lines.len(), 1, "{lines:?}");
        // One report, no partial total, and no `nobestmove` for the `stop` it answered.
        let after = s.sync();
        assert!(after.is_empty(), "{after:?}");
        // A search after it works as ever; so does a whole perft.
        s.send("go depth 2");
        assert_legal(&Position::startpos(), s.bestmove().last().unwrap());
        s.send("go perft 2");
        let lines = s.expect("perft total", |l| l.starts_with("Nodes searched"));
        assert_eq!(lines.last().unwrap(), "Nodes searched: 1920");
        // A new perft ends the running one; `quit` ends the last.
        s.send("go perft 8");
        s.send("go perft 7");
        s.send("isready");
        let lines = s.expect_within("readyok", |l| l == "readyok", prompt);
        assert_eq!(
            count(&lines, |l| l.starts_with("info string perft 8 stopped")),
            1,
            "{lines:?}"
        );
        s.send("quit");
        assert!(s.exits_within(prompt), "{}", s.dump());
    }
}

/// Every move of a PV is legal where it is played.
fn assert_pv_legal(pos: &Position, line: &str) {
    let Some(i) = line.find(" pv ") else {
        return;
    };
    let mut p = pos.clone();
    for m in line[i + 4..].split_whitespace() {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{e} in {line}"));
        p.make_move(mv);
    }
}

#[test]
fn principal_variations_and_ponder_moves_are_legal() {
    // Found by tests/protocol_fuzz.rs: at depth 1 the quiescence search left the PV of an
    // earlier root move in place, so `b7e7` came with `a0b0` (legal only after `b7b0`).
    let fen = "1nbakabnr/9/rc4c2/p1p1p1p1p/9/9/P1P1P1P1P/4B2CR/1C7/RN1AKABN1 b - - 5 3";
    let pos = position(Some(fen), &[]);
    for options in [
        "setoption name MultiPV value 4",
        "setoption name Skill Level value 3",
    ] {
        let mut s = Session::with("uci");
        s.send(options);
        s.send(&format!("position fen {fen}"));
        s.send("go depth 3");
        let lines = s.bestmove();
        for l in &lines {
            assert_pv_legal(&pos, l);
        }
        assert_legal(&pos, lines.last().unwrap());
    }
}

#[test]
fn huge_clock_values_are_survived() {
    // Found by tests/protocol_fuzz.rs: the time plan multiplied the increment and overflowed
    // (a panic in debug builds).
    let huge = "99999999999999999999";
    for (dialect, go) in [
        (
            "uci",
            format!("go wtime 1000 btime 1000 winc {huge} binc {huge}"),
        ),
        (
            "uci",
            format!("go wtime {huge} btime {huge} winc {huge} movestogo 1"),
        ),
        ("ucci", format!("go time 1000 increment {huge}")),
        (
            "ucci",
            format!("go time {huge} increment {huge} opptime {huge}"),
        ),
    ] {
        let mut s = Session::with(dialect);
        // A search, not a book move: the time plan is what is tested.
        s.send("setoption name OwnBook value false");
        s.send(&go);
        std::thread::sleep(Duration::from_millis(50));
        s.send("stop");
        assert_legal(&Position::startpos(), s.bestmove().last().unwrap());
        assert!(s.sync().is_empty(), "{}", s.dump());
    }
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut s = Session::with("uci");
    s.send("go infinite");
    s.stdin = None;
    assert!(s.exits_within(Duration::from_secs(5)), "{}", s.dump());
}

#[test]
fn bad_input_is_reported_and_survived() {
    let mut s = Session::with("uci");
    s.send("position startpos moves h2e2");
    let good = "FEN: rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let mut bad = vec![
        "frobnicate",
        "position fen rnbakabnr/9/1c5c1 w",
        "position fen xnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR q",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "position fen",
        "position startpos moves h2e2 h9g7 h0h9",
        "position startpos moves h2e2 zz99",
        "position startpos moves h2e2 h2e2",
        "position elsewhere",
        "setoption name Hash value -5",
        "setoption name Hash value many",
        "setoption name Threads value 100000",
        "setoption usemillisec perhaps",
        "setoption name MultiPV value 0",
        "setoption",
        "banmoves a0a9",
        "banmoves xyz",
        "probe fen garbage",
        "go perft 99",
    ];
    if cfg!(target_os = "linux") {
        // More than the machine has: refused (elsewhere the allocator would be tried).
        bad.push("setoption name Hash value 1048576");
    }
    for cmd in bad {
        s.send(cmd);
        let said = s.sync();
        assert_eq!(said.len(), 1, "{cmd}: {said:?}");
        assert!(said[0].starts_with("info string "), "{cmd}: {said:?}");
        s.send("d");
        let lines = s.sync();
        assert!(
            lines.iter().any(|l| l == good),
            "{cmd} changed the position: {lines:?}"
        );
    }
    // go with garbage still searches (the GUI waits for its bestmove), and says what it ignored.
    s.send("go depth banana movetime 200 quickly searchmoves h9g7 a0a1");
    let lines = s.bestmove();
    assert!(
        count(&lines, |l| l.starts_with("info string")) >= 2,
        "{lines:?}"
    );
    assert_legal(&position(None, &["h2e2"]), lines.last().unwrap());
    // A valid option after a bad one still applies; the engine still searches.
    s.send("setoption name Hash value 2");
    s.send("go depth 3");
    assert_legal(&position(None, &["h2e2"]), s.bestmove().last().unwrap());
    // Binary garbage and a very long line.
    s.send_raw("\u{fffd}\u{1}\u{7f}\n");
    s.send(&"go ".repeat(5000));
    s.send("stop");
    s.bestmove();
    assert_eq!(count(&s.sync(), is_final), 0);
}

#[test]
fn echoed_input_is_short_and_escaped() {
    let mut s = Session::with("uci");
    let huge = "x".repeat(200_000);
    let long_name = "N".repeat(5000);
    let long_value = "9x".repeat(3000);
    let long_move = "a".repeat(100_000);
    for cmd in [
        huge.clone(),
        "frob\u{0}\u{1b}[31mred".to_string(),
        format!("setoption name {long_name} value 1"),
        format!("setoption name Hash value {long_value}"),
        format!("setoption name BookFile value /nonexistent/{huge}"),
        format!("position startpos moves {long_move}"),
        format!("position fen {long_move}"),
        format!("banmoves {long_move}"),
        format!("probe startpos moves {long_move}"),
        format!("setoption name Repetition Rule value {huge}"),
    ] {
        s.send(&cmd);
        let said = s.sync();
        assert_eq!(said.len(), 1, "{said:?}");
        let line = &said[0];
        assert!(line.starts_with("info string "), "{line}");
        assert!(line.len() < 600, "{} characters: {line}", line.len());
        assert!(!line.chars().any(char::is_control), "{line:?}");
    }
    s.send(&format!(
        "go depth 1 movetime 100 searchmoves h2e2 {}",
        "9x".repeat(3000)
    ));
    let lines = s.bestmove();
    assert!(lines.iter().all(|l| l.len() < 600), "{lines:?}");
    // Escapes, not raw bytes; the echo says how long the input was.
    s.send("frob\u{0}\u{1b}[2Jnicate");
    let said = s.sync();
    assert_eq!(
        said,
        ["info string unknown command 'frob\\x00\\x1b[2Jnicate' ignored"]
    );
    s.send(&format!("setoption name {long_name} value 1"));
    let said = s.sync();
    assert!(said[0].contains("... (5000 characters)"), "{said:?}");
    // A line beyond the reader's limit is measured and dropped, not kept or echoed.
    let too_long = "y".repeat(3 << 20);
    s.send(&too_long);
    let said = s.sync();
    assert_eq!(
        said,
        [format!(
            "info string an input line of {} bytes is longer than {} bytes; ignored",
            3 << 20,
            chuhan::protocol::input::MAX_LINE_BYTES
        )]
    );
    s.send("go depth 2");
    assert_legal(&Position::startpos(), s.bestmove().last().unwrap());
}

#[test]
fn repetition_rule_option_changes_what_the_search_plays() {
    // Red, worse, can repeat a perpetual check a third time with e1d1 (see tests/search_rules.rs):
    // under DrawRule that is its best (a draw); under ChineseRule it loses, so Red plays on.
    let position = "position fen r2k1a3/9/9/9/9/n8/9/9/2R6/5K3 w - - 0 1 moves \
                    c1d1 d9e9 d1e1 e9d9 e1d1 d9e9 d1e1 e9d9";
    let best = |rule: &str| {
        let mut s = Session::with("uci");
        s.send(&format!("setoption name Repetition Rule value {rule}"));
        assert!(s.sync().is_empty(), "{rule} accepted quietly");
        s.send(position);
        s.send("go depth 10");
        let lines = s.bestmove();
        lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert_eq!(best("DrawRule"), "e1d1");
    assert_ne!(best("ChineseRule"), "e1d1");
    assert_ne!(best("AsianRule"), "e1d1");

    let mut s = Session::with("uci");
    s.send("setoption name Repetition Rule value MoonRule");
    let said = s.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string") && l.contains("MoonRule")),
        "{said:?}"
    );
    let mut fresh = Session::start();
    fresh.send("uci");
    let handshake = fresh.expect_line("uciok");
    assert!(
        handshake
            .iter()
            .any(|l| l.starts_with("option name Repetition Rule type combo default ChineseRule")),
        "{handshake:?}"
    );
}

#[test]
fn the_opening_book_answers_game_moves_but_not_analysis() {
    let book = chuhan::engine::book::Book::built_in();
    let start = chuhan::board::position::Position::startpos();
    let book_moves: Vec<String> = book
        .moves(&start)
        .iter()
        .map(|b| b.mv.to_string())
        .collect();
    let mut s = Session::with("ucci");
    s.send("position startpos");
    s.send("go time 60000 increment 0 opptime 60000 oppincrement 0");
    let lines = s.bestmove();
    let best = lines
        .last()
        .unwrap()
        .split_whitespace()
        .nth(1)
        .unwrap()
        .to_string();
    assert!(book_moves.contains(&best), "{best} not in {book_moves:?}");
    // The book move is said to be one, and carries no draw offer or resignation.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("info string book move {best} "))),
        "{lines:?}"
    );
    assert_eq!(
        lines.last().unwrap().split_whitespace().count(),
        2,
        "{lines:?}"
    );
    // Without the book the engine searches (and reports how).
    s.send("setoption usebook false");
    s.send("go time 60000 increment 0 opptime 60000 oppincrement 0");
    let lines = s.bestmove();
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // A missing book file is reported and changes nothing.
    s.send("setoption bookfiles /nonexistent/book.txt");
    let said = s.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string") && l.contains("keeping the current book")),
        "{said:?}"
    );
}

fn reads_as_start_failure(line: &str) -> bool {
    let line = line.to_lowercase();
    START_FAILURE.iter().any(|p| line.contains(p))
}

/// A file under the system's temporary folder, named for this process and `name`.
fn temp_file(name: &str, contents: &[u8]) -> std::path::PathBuf {
    let path = std::env::temp_dir().join(format!("chuhan-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).unwrap();
    path
}

/// The move of a game move's answer (UCCI, with a clock: the book answers it).
fn game_move(s: &mut Session) -> String {
    s.send("position startpos");
    s.send("go time 60000 increment 0 opptime 60000 oppincrement 0");
    best_of(s.bestmove().last().unwrap())
}

#[test]
fn empty_string_options_mean_no_file_in_both_dialects() {
    // uci2wb (XBoard) sends every string option back as announced: `<empty>`.
    for (dialect, commands) in [
        (
            "uci",
            [
                "setoption name BookFile value <empty>",
                "setoption name BookFile value",
                "setoption name BookFile",
            ],
        ),
        (
            "ucci",
            [
                "setoption bookfiles <empty>",
                "setoption bookfiles",
                "setoption name bookfiles value <EMPTY>",
            ],
        ),
    ] {
        let mut s = Session::with(dialect);
        for cmd in commands {
            s.send(cmd);
            let said = s.sync();
            assert!(said.is_empty(), "{cmd}: {said:?}");
        }
    }
    // `<empty>` brings the built-in book back after another one.
    let book = temp_file("edge-pawn-book.txt", b"a3a4 a6a5\n");
    let mut s = Session::with("ucci");
    s.send(&format!("setoption bookfiles {}", book.display()));
    assert!(s.sync().is_empty(), "{}", s.dump());
    let m = game_move(&mut s);
    assert!(m == "a3a4" || m == "i3i4", "{m}");
    s.send("setoption bookfiles <empty>");
    assert!(s.sync().is_empty(), "{}", s.dump());
    let built_in = chuhan::engine::book::Book::built_in();
    let m = game_move(&mut s);
    assert!(
        built_in
            .moves(&Position::startpos())
            .iter()
            .any(|b| b.mv.to_string() == m),
        "{m}"
    );
    let _ = std::fs::remove_file(book);
}

#[test]
fn a_file_with_no_usable_line_keeps_the_book() {
    let edge = temp_file("edge-book.txt", b"a3a4 a6a5\n");
    let mut binary: Vec<u8> = (0..=255u8).collect();
    binary.extend_from_slice(b"\n\x00\x1b[2J\xff\xfe\n");
    let rejected = [
        temp_file("empty-book.txt", b""),
        temp_file("comments-book.txt", b"# nothing but a comment\n\n"),
        temp_file("binary-book.bin", &binary),
        temp_file(
            "passwd-book.txt",
            b"root:x:0:0:root:/root:/bin/bash\nbin:x:1:1::/:\n",
        ),
        temp_file("prose-book.txt", b"These are not moves.\nNor is this.\n"),
    ];
    let mut s = Session::with("ucci");
    s.send(&format!("setoption bookfiles {}", edge.display()));
    assert!(s.sync().is_empty(), "{}", s.dump());
    for path in &rejected {
        s.send(&format!("setoption bookfiles {}", path.display()));
        let said = s.sync();
        assert_eq!(said.len(), 1, "{path:?}: {said:?}");
        assert!(
            said[0].starts_with("info string")
                && (said[0].contains("no usable opening line")
                    || said[0].contains("is neither a book nor opening lines"))
                && said[0].contains("keeping the current book"),
            "{said:?}"
        );
        let m = game_move(&mut s);
        assert!(m == "a3a4" || m == "i3i4", "{path:?} changed the book: {m}");
    }
    // Some good lines among bad ones: the good ones are loaded, the rest counted.
    let mixed = temp_file("mixed-book.txt", b"c3c4 c6c5\nzz99\nh2e2 h2e3\n");
    s.send(&format!("setoption bookfiles {}", mixed.display()));
    let said = s.sync();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("1 opening line loaded, 2 lines skipped (line 2: "),
        "{said:?}"
    );
    let m = game_move(&mut s);
    assert!(m == "c3c4" || m == "g3g4", "{m}");
    for path in rejected.iter().chain([&edge, &mixed]) {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn file_errors_are_never_in_words_guis_take_for_a_failed_start() {
    let dir = std::env::temp_dir();
    let mut s = Session::with("uci");
    for path in [
        "/nonexistent/book.txt".to_string(),
        "<empty>x".to_string(),
        dir.display().to_string(),
    ] {
        s.send(&format!("setoption name BookFile value {path}"));
        let said = s.sync();
        assert_eq!(said.len(), 1, "{path}: {said:?}");
        assert!(said[0].starts_with("info string"), "{said:?}");
        assert!(!reads_as_start_failure(&said[0]), "{said:?}");
    }
}

/// The node count of a finished search's last `info depth` line.
fn nodes_of(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let w: Vec<&str> = info.split_whitespace().collect();
    let i = w.iter().position(|&x| x == "nodes").expect("nodes") + 1;
    w[i].parse().unwrap()
}

/// Nodes of `go depth 5` from the start position with a fresh hash table.
fn nodes_at_depth_5(s: &mut Session) -> u64 {
    s.send("ucinewgame");
    s.send("position startpos");
    s.send("go depth 5");
    let lines = s.bestmove();
    assert_legal(&Position::startpos(), lines.last().unwrap());
    nodes_of(&lines)
}

#[test]
fn search_params_change_the_search_and_refuse_bad_files() {
    let mut s = Session::with("uci");
    let built_in = nodes_at_depth_5(&mut s);
    // Other margins load, say so, and make another (repeatable) search.
    let wider = temp_file(
        "search-wider.txt",
        b"# wider\nrfp_margin = 200\nlmr_base = 150\n",
    );
    s.send(&format!(
        "setoption name SearchParams value {}",
        wider.display()
    ));
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].contains("loaded: the search uses its numbers"),
        "{said:?}"
    );
    let with_params = nodes_at_depth_5(&mut s);
    assert_ne!(with_params, built_in);
    assert_eq!(nodes_at_depth_5(&mut s), with_params);
    // A file that does not read, or asks for a value out of range (a zero divisor), is refused
    // with its reason, and the numbers stay.
    let zero = temp_file("search-zero.txt", b"lmr_history_div = 0\n");
    let eval_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/eval-params/handmade.txt"
    );
    for (path, reason) in [
        (
            zero.display().to_string(),
            "'lmr_history_div' = 0 is out of its range",
        ),
        (
            eval_file.to_string(),
            "unknown parameter 'material.advisor.mg'",
        ),
        ("/nonexistent/params.txt".to_string(), "does not exist"),
        ("/dev/zero".to_string(), "is not a regular file"),
    ] {
        s.send(&format!("setoption name SearchParams value {path}"));
        let said = s.sync();
        assert!(
            said.len() == 1
                && said[0].starts_with("info string")
                && said[0].contains(reason)
                && said[0].ends_with("keeping the numbers loaded before"),
            "{said:?}"
        );
    }
    assert_eq!(nodes_at_depth_5(&mut s), with_params, "the numbers stayed");
    // `<empty>` goes back to the built-in numbers, quietly; UCCI spells it `searchparams`.
    s.send("setoption name SearchParams value <empty>");
    assert!(s.sync().is_empty(), "{}", s.dump());
    assert_eq!(nodes_at_depth_5(&mut s), built_in);
    let mut u = Session::with("ucci");
    u.send(&format!("setoption searchparams {}", zero.display()));
    let said = u.sync();
    assert!(
        said.len() == 1 && said[0].ends_with("keeping the built-in numbers"),
        "{said:?}"
    );
    for path in [wider, zero] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn eval_params_set_the_classical_numbers_and_refuse_bad_files() {
    let handmade = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/eval-params/handmade.txt"
    );
    let mut s = Session::with("uci");
    let network = nodes_at_depth_5(&mut s);
    s.send("setoption name Use NNUE value false");
    let built_in = nodes_at_depth_5(&mut s);
    // Another set of numbers loads, says so, and makes another (repeatable) search.
    s.send(&format!("setoption name EvalParams value {handmade}"));
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].contains("loaded: the classical evaluation uses its numbers"),
        "{said:?}"
    );
    let with_params = nodes_at_depth_5(&mut s);
    assert_ne!(with_params, built_in);
    assert_eq!(nodes_at_depth_5(&mut s), with_params);
    // A file that does not read is refused with its reason, and the numbers stay.
    let unknown = temp_file(
        "unknown.txt",
        b"# fine\nmaterial.rook.mg = 900\nfrobnicate = 3\n",
    );
    let bad_value = temp_file("bad-value.txt", b"material.rook.mg = lots\n");
    for (path, reason) in [
        (
            unknown.display().to_string(),
            "line 3: unknown parameter 'frobnicate'",
        ),
        (bad_value.display().to_string(), "line 1: bad value 'lots'"),
        ("/nonexistent/params.txt".to_string(), "does not exist"),
        ("src".to_string(), "is a directory"),
        ("/dev/zero".to_string(), "is not a regular file"),
        (
            format!("{}/book/chuhan.book", env!("CARGO_MANIFEST_DIR")),
            "is not text",
        ),
    ] {
        s.send(&format!("setoption name EvalParams value {path}"));
        let said = s.sync();
        assert!(
            said.len() == 1
                && said[0].starts_with("info string")
                && said[0].contains(reason)
                && said[0].ends_with("keeping the numbers loaded before"),
            "{said:?}"
        );
    }
    assert_eq!(nodes_at_depth_5(&mut s), with_params, "the numbers stayed");
    // The network, when on, evaluates whatever numbers are loaded.
    s.send("setoption name Use NNUE value true");
    assert_eq!(nodes_at_depth_5(&mut s), network);
    s.send("setoption name Use NNUE value false");
    // `<empty>` goes back to the built-in numbers, quietly; then a bad file keeps them.
    s.send("setoption name EvalParams value <empty>");
    assert!(s.sync().is_empty(), "{}", s.dump());
    assert_eq!(nodes_at_depth_5(&mut s), built_in);
    s.send(&format!(
        "setoption name EvalParams value {}",
        unknown.display()
    ));
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].ends_with("keeping the built-in numbers"),
        "{said:?}"
    );
    // UCCI spells it `evalparams`; loaded while the network evaluates, it says when it counts.
    let mut u = Session::with("ucci");
    u.send(&format!("setoption evalparams {handmade}"));
    let said = u.sync();
    assert!(
        said.len() == 1 && said[0].contains("loaded: its numbers evaluate once Use NNUE is off"),
        "{said:?}"
    );
    for path in [unknown, bad_value] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn eval_file_loads_a_network_and_refuses_bad_files() {
    let good = chuhan::eval::nnue::Network::random(3).to_bytes();
    let net = temp_file("random.nnue", &good);
    let mut s = Session::with("uci");
    // The built-in network evaluates by default; `Use NNUE false` gives the classical
    // evaluation, another search.
    let built_in = nodes_at_depth_5(&mut s);
    s.send("setoption name Use NNUE value false");
    assert!(s.sync().is_empty(), "{}", s.dump());
    let classical = nodes_at_depth_5(&mut s);
    assert_ne!(classical, built_in);
    s.send("setoption name Use NNUE value true");
    assert_eq!(nodes_at_depth_5(&mut s), built_in);
    // A network file loads, says so with its architecture, and evaluates from then on.
    s.send(&format!("setoption name EvalFile value {}", net.display()));
    let said = s.sync();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("info string")
            && said[0].contains("loaded: the network evaluates, (1260 -> 512) x 2 -> 1"),
        "{said:?}"
    );
    let with_net = nodes_at_depth_5(&mut s);
    assert_ne!(with_net, built_in, "the network changes the search");
    assert_ne!(with_net, classical);
    assert_eq!(nodes_at_depth_5(&mut s), with_net, "and repeats it exactly");

    // Each bad file is refused with its reason, and the network stays.
    let patched = |at: usize, bytes: &[u8]| {
        let mut b = good.clone();
        b[at..at + bytes.len()].copy_from_slice(bytes);
        b
    };
    let mut overlong = good.clone();
    overlong.extend_from_slice(b"more");
    let bad = [
        ("empty.nnue", Vec::new(), "is empty"),
        (
            "truncated.nnue",
            good[..good.len() - 1].to_vec(),
            "is truncated",
        ),
        ("overlong.nnue", overlong, "is too long"),
        (
            "book.nnue",
            patched(0, b"CHUHANBK"),
            "is not a Chuhan network",
        ),
        (
            "v1.nnue",
            patched(8, &1u32.to_le_bytes()),
            "format version 1",
        ),
        (
            "narrow.nnue",
            patched(16, &256u32.to_le_bytes()),
            "another architecture (hidden size 256",
        ),
    ];
    let mut paths = Vec::new();
    for (name, bytes, reason) in bad {
        let path = temp_file(name, &bytes);
        s.send(&format!("setoption name EvalFile value {}", path.display()));
        let said = s.sync();
        assert_eq!(said.len(), 1, "{name}: {said:?}");
        assert!(
            said[0].starts_with("info string")
                && said[0].contains(reason)
                && said[0].ends_with("keeping the network loaded before"),
            "{name}: {said:?}"
        );
        paths.push(path);
    }
    for (path, reason) in [
        ("/nonexistent/net.nnue", "does not exist"),
        ("src", "is a directory"),
    ] {
        s.send(&format!("setoption name EvalFile value {path}"));
        let said = s.sync();
        assert!(
            said.len() == 1 && said[0].contains(reason) && !said[0].contains("os error"),
            "{said:?}"
        );
    }
    assert_eq!(nodes_at_depth_5(&mut s), with_net, "the network stayed");

    // With `Use NNUE` off the classical evaluation evaluates, whatever network is loaded.
    s.send("setoption name Use NNUE value false");
    assert_eq!(nodes_at_depth_5(&mut s), classical);
    s.send("setoption name Use NNUE value true");
    assert_eq!(nodes_at_depth_5(&mut s), with_net);
    // `<empty>` goes back to the built-in network, quietly.
    s.send("setoption name EvalFile value <empty>");
    assert!(s.sync().is_empty(), "{}", s.dump());
    assert_eq!(nodes_at_depth_5(&mut s), built_in);
    // Without a network file, a bad file keeps the built-in network.
    s.send(&format!(
        "setoption name EvalFile value {}",
        paths[1].display()
    ));
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].ends_with("keeping the built-in network"),
        "{said:?}"
    );
    assert_eq!(nodes_at_depth_5(&mut s), built_in);
    // A file loaded while `Use NNUE` is off says when it will evaluate.
    s.send("setoption name Use NNUE value false");
    s.send(&format!("setoption name EvalFile value {}", net.display()));
    let said = s.sync();
    assert!(
        said.len() == 1 && said[0].contains("loaded: it evaluates once Use NNUE is on"),
        "{said:?}"
    );
    assert_eq!(nodes_at_depth_5(&mut s), classical);

    // UCCI spells them `usennue` and `evalfile`.
    let mut u = Session::with("ucci");
    u.send("setoption usennue false");
    assert!(u.sync().is_empty(), "{}", u.dump());
    u.send("setoption usennue true");
    u.send(&format!("setoption evalfile {}", net.display()));
    let said = u.sync();
    assert!(
        said.len() == 1 && said[0].contains("the network evaluates"),
        "{said:?}"
    );
    u.send("position startpos");
    u.send("go depth 3");
    assert_legal(&Position::startpos(), u.bestmove().last().unwrap());
    for path in paths.into_iter().chain([net]) {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn contempt_counts_in_games_but_not_in_analysis() {
    // Black to move cannot escape Red's perpetual check (every repetition a draw here): in
    // check from d1, Kd9-e9 is its only move. A draw, which contempt 40 scores -40 for Black
    // when playing, and 0 when analysing.
    let mut s = Session::with("uci");
    s.send("setoption name Repetition Rule value DrawRule");
    s.send("setoption name Contempt value 40");
    s.send(
        "position fen r2k1a3/9/9/9/9/n8/9/9/2R6/5K3 w - - 0 1 moves c1d1 d9e9 d1e1 e9d9 \
         e1d1 d9e9 d1e1 e9d9 e1d1",
    );
    let last_score = |lines: &[String]| {
        lines
            .iter()
            .rev()
            .find_map(|l| l.split(" score cp ").nth(1))
            .and_then(|rest| rest.split(' ').next()?.parse::<i32>().ok())
    };
    s.send("go depth 8");
    assert_eq!(last_score(&s.bestmove()), Some(-40), "{}", s.dump());
    s.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    s.send("stop");
    assert_eq!(last_score(&s.bestmove()), Some(0), "{}", s.dump());
}

#[test]
fn d_says_whether_the_position_is_in_the_book() {
    let mut s = Session::with("uci");
    let book_line = |s: &mut Session| {
        s.send("d");
        let lines = s.sync();
        lines
            .iter()
            .find(|l| l.starts_with("Book"))
            .unwrap_or_else(|| panic!("`d` says nothing of the book: {lines:?}"))
            .clone()
    };
    // The start: the built-in book has the central cannon and plays it.
    let line = book_line(&mut s);
    assert!(line.starts_with("Book: in book, "), "{line}");
    let plays = line.split("; plays ").nth(1).expect("what the book plays");
    assert!(plays.split(' ').any(|m| m == "h2e2"), "{line}");
    let listed = line.split("; plays ").next().unwrap();
    let weight = listed
        .split(", ")
        .find_map(|entry| entry.rsplit(": ").next()?.strip_prefix("h2e2 "))
        .and_then(|rest| rest.split(' ').next()?.parse::<u32>().ok());
    assert!(weight.is_some_and(|w| w > 0), "{line}");
    // A seed move the book knows and never plays (the search scores it far below the best):
    // listed with weight 0, not played.
    s.send("position startpos moves h2e2 h9g7 h0g2 h7i7 i0h0");
    let line = book_line(&mut s);
    assert!(line.contains("i9h9 0 "), "{line}");
    let plays = line.split("; plays ").nth(1).unwrap();
    assert!(!plays.split(' ').any(|m| m == "i9h9"), "{line}");
    // Bare kings: not in the book.
    s.send("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w");
    assert_eq!(book_line(&mut s), "Book: not in book");
    // The book off: still told, with that said.
    s.send("setoption name OwnBook value false");
    s.send("position startpos");
    let line = book_line(&mut s);
    assert!(line.starts_with("Book (not in use): in book, "), "{line}");
    // Another book: move lines as a book, no scores.
    s.send("setoption name BookFile value book/openings.txt");
    s.send("setoption name OwnBook value true");
    s.send("position startpos moves c3c4 h9g7");
    let line = book_line(&mut s);
    assert!(line.contains("b0c2 1 -"), "{line}");
}
