//! Protocol fuzzing against the built binary: seeded, deterministic input (the engine's timing
//! is not), mixing valid, mutated and random lines in both dialects. After every block of
//! lines the engine must still answer `isready` with `readyok`, and a `go depth 2` with
//! exactly one `bestmove` that is legal in the position `d` reports (or `bestmove (none)` /
//! `nobestmove` when there is no legal move). Every line it writes must be one clean line:
//! UTF-8, no control characters, not huge, and never a phrase GUIs take for a failed start.
//!
//! `CHUHAN_FUZZ_LINES` (default 20 000, about 20 s) and `CHUHAN_FUZZ_SEED` set the run; a
//! failure names the seed and shows the latest traffic. A long run for a release check:
//! `CHUHAN_FUZZ_LINES=1000000 cargo test --release --test protocol_fuzz -- --nocapture`.

mod common;
use chuhan::board::movegen::legal_moves;
use chuhan::board::position::Position;
use chuhan::engine::{MAX_HASH_MB, MAX_THREADS};
use chuhan::protocol::input::MAX_LINE_BYTES;
use chuhan::protocol::options::{self, Kind, TABLE};
use chuhan::protocol::Command;
use common::START_FAILURE;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::time::{Duration, Instant};

/// Lines per block between two checks.
const BLOCK: usize = 40;
/// How long any answer may take (CI shares two cores; this catches a hang, not slowness).
const PATIENCE: Duration = Duration::from_secs(60);
/// The longest line the engine may write.
const MAX_OUTPUT_LINE: usize = 4096;

/// SplitMix64: a tiny seeded generator, enough for test input.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v:?} is not a number")),
        Err(_) => default,
    }
}

/// Positions to start from besides the start position: a mate in one, a checkmate, a 困毙
/// (no legal move, not in check), two legal moves only, and an ordinary middlegame.
const FENS: [&str; 6] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "4k4/R8/9/9/9/9/9/9/9/1R1K5 w",
    "5k3/9/9/9/9/9/9/9/r8/r3K4 w",
    "3k5/9/9/9/3r5/9/9/6n2/9/4K4 w",
    "3k4P/9/9/9/3r5/9/9/9/r8/4K4 w",
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w",
];

/// Words of both dialects, for random and mutated lines.
const WORDS: &str =
    "uci ucci isready setoption name value position fen startpos moves banmoves ucinewgame \
     uccinewgame newgame go stop ponderhit probe d debug register depth nodes movetime mate \
     infinite ponder draw perft searchmoves wtime btime winc binc movestogo time opptime \
     increment oppincrement oppmovestogo byoyomi Hash hashsize Threads MultiPV BookFile \
     <empty> true false h2e2 h9g7 a0a9 e0e1 0 1 -5 3 99999999999999999999";

/// Numbers for `go` and spins: ordinary, edge, negative, huge and not numbers at all.
const NUMBERS: [&str; 16] = [
    "0",
    "1",
    "2",
    "3",
    "10",
    "50",
    "500",
    "-1",
    "-30000",
    "1.5",
    "1e9",
    "99999999999999999999",
    "18446744073709551616",
    "4294967296",
    "x",
    "",
];

/// A random walk of up to `plies` legal moves from `pos`, as text; `pos` ends after it.
fn walk(rng: &mut Rng, pos: &mut Position, plies: usize) -> Vec<String> {
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = legal_moves(pos);
        if legal.is_empty() {
            break;
        }
        let m = *rng.pick(legal.as_slice());
        moves.push(m.to_string());
        pos.make_move(m);
    }
    moves
}

/// A square name, sometimes off the board.
fn square(rng: &mut Rng) -> String {
    let file = *rng.pick(b"abcdefghij");
    let rank = *rng.pick(b"0123456789");
    format!("{}{}", file as char, rank as char)
}

fn random_move(rng: &mut Rng) -> String {
    format!("{}{}", square(rng), square(rng))
}

/// `position …` (or the GUI variants without the keyword), mostly legal.
fn position_line(rng: &mut Rng) -> String {
    let (mut pos, spec) = if rng.chance(50) {
        (Position::startpos(), "startpos".to_string())
    } else {
        let fen = *rng.pick(&FENS);
        (Position::from_fen(fen).unwrap(), format!("fen {fen}"))
    };
    let plies = rng.below(30);
    let mut moves = walk(rng, &mut pos, plies);
    if rng.chance(15) {
        moves.push(random_move(rng));
    }
    let head = match rng.below(10) {
        0 => String::new(),
        1 => "POSITION ".into(),
        _ => "position ".into(),
    };
    if moves.is_empty() && rng.chance(50) {
        format!("{head}{spec}")
    } else {
        format!("{head}{spec} moves {}", moves.join(" "))
    }
}

/// `go` with any words of either dialect, values sane or not.
fn go_line(rng: &mut Rng) -> String {
    let mut words = vec!["go".to_string()];
    for _ in 0..rng.below(5) {
        let word = match rng.below(20) {
            0 => "depth",
            1 => "nodes",
            2 => "movetime",
            3 => "mate",
            4 => "infinite",
            5 => "ponder",
            6 => "draw",
            7 => "perft",
            8 => "searchmoves",
            9 => "wtime",
            10 => "btime",
            11 => "winc",
            12 => "binc",
            13 => "movestogo",
            14 => "time",
            15 => "opptime",
            16 => "increment",
            17 => "oppincrement",
            18 => "oppmovestogo",
            _ => "byoyomi",
        };
        words.push(word.into());
        match word {
            "infinite" | "ponder" | "draw" => {}
            "searchmoves" => {
                for _ in 0..rng.below(4) {
                    words.push(random_move(rng));
                }
            }
            // Deep perft runs until the next `go` or `stop`: mostly shallow.
            "perft" => words.push(
                rng.pick(&["1", "2", "3", "4", "6", "13", "0", "-2"])
                    .to_string(),
            ),
            "depth" => words.push(
                rng.pick(&["1", "2", "3", "5", "0", "-4", "99999999999", "x"])
                    .to_string(),
            ),
            _ => words.push(rng.pick(&NUMBERS).to_string()),
        }
    }
    words.join(" ")
}

/// A value for an option: mostly of its type, sometimes not.
fn option_value(rng: &mut Rng, name: &str, kind: Kind) -> Option<String> {
    if rng.chance(10) {
        return match rng.below(3) {
            0 => None,
            1 => Some("<empty>".into()),
            _ => Some(rng.pick(&NUMBERS).to_string()),
        };
    }
    Some(match (name, kind) {
        // A real machine's limits: no hash table of gigabytes, no thousand threads.
        ("Hash", _) => rng
            .pick(&["1", "2", "16", "64", "0", "-1", "1048577", "many"])
            .to_string(),
        ("Threads", _) => rng.pick(&["1", "2", "3", "0", "1025", "-1"]).to_string(),
        ("BookFile", _) => rng
            .pick(&[
                "<empty>",
                "",
                "book/openings.txt",
                "/nonexistent/book.txt",
                "Cargo.toml",
                "/dev/null",
                "/etc/passwd",
                "src",
            ])
            .to_string(),
        ("EvalFile", _) => rng
            .pick(&[
                "<empty>",
                "",
                "/nonexistent/net.nnue",
                "Cargo.toml",
                "/dev/null",
                "book/chuhan.book",
                "src",
            ])
            .to_string(),
        ("EvalParams" | "SearchParams", _) => rng
            .pick(&[
                "<empty>",
                "",
                "scripts/eval-params/handmade.txt",
                "/nonexistent/params.txt",
                "Cargo.toml",
                "/dev/null",
                "/dev/zero",
                "book/chuhan.book",
                "src",
            ])
            .to_string(),
        (_, Kind::Spin { min, max, .. }) => match rng.below(4) {
            0 => min.to_string(),
            1 => (min + rng.below((max - min + 1).min(1000) as usize) as i64).to_string(),
            2 => (max + 1).to_string(),
            _ => rng.pick(&NUMBERS).to_string(),
        },
        (_, Kind::Check { .. }) => rng.pick(&["true", "false", "on", "0", "maybe"]).to_string(),
        (_, Kind::Button { .. }) => return None,
        (_, Kind::Combo { vars, .. }) => {
            if rng.chance(80) {
                rng.pick(vars).to_string()
            } else {
                "MoonRule".into()
            }
        }
        (_, Kind::Text { .. }) => rng.pick(&["xiangqi", "1", "", "a b c"]).to_string(),
    })
}

/// `setoption` with any option of the table, in either form.
fn setoption_line(rng: &mut Rng) -> String {
    let spec = rng.pick(TABLE);
    let names: Vec<&str> = [spec.uci, spec.ucci]
        .into_iter()
        .flatten()
        .chain(spec.aliases.iter().copied())
        .collect();
    let name = if names.is_empty() || rng.chance(3) {
        "Frobnicate"
    } else {
        *rng.pick(&names)
    };
    let value = option_value(rng, spec.name(), spec.kind);
    match (rng.chance(50), value) {
        (true, Some(v)) => format!("setoption name {name} value {v}"),
        (true, None) => format!("setoption name {name}"),
        (false, Some(v)) => format!("setoption {name} {v}"),
        (false, None) => format!("setoption {name}"),
    }
}

/// One well-formed line of either dialect.
fn valid_line(rng: &mut Rng) -> String {
    match rng.below(24) {
        0..=4 => position_line(rng),
        5..=9 => go_line(rng),
        10..=12 => setoption_line(rng),
        13 => {
            let mut pos = Position::startpos();
            let plies = 1 + rng.below(3);
            let mut moves = walk(rng, &mut pos, plies);
            moves.truncate(1 + rng.below(2));
            if rng.chance(30) {
                moves.push(random_move(rng));
            }
            format!("banmoves {}", moves.join(" "))
        }
        14 => match rng.below(3) {
            0 => "probe".into(),
            1 => format!(
                "probe {}",
                position_line(rng).trim_start_matches("position ")
            ),
            _ => "probe fen garbage".into(),
        },
        15 => "stop".into(),
        16 => rng.pick(&["ponderhit", "ponderhit draw"]).to_string(),
        17 => "isready".into(),
        18 => "d".into(),
        19 => rng.pick(&["uci", "ucci"]).to_string(),
        20 => rng
            .pick(&["ucinewgame", "uccinewgame", "newgame"])
            .to_string(),
        21 => rng.pick(&["debug on", "register later", ""]).to_string(),
        _ => pick_word(rng).to_string(),
    }
}

/// A valid line damaged: bytes dropped, inserted (NUL, ESC, CR, any), words shuffled, cut.
fn mutated_line(rng: &mut Rng) -> Vec<u8> {
    let mut bytes = valid_line(rng).into_bytes();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(6) {
            0 if at < bytes.len() => {
                let end = (at + 1 + rng.below(6)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => bytes.insert(at, *rng.pick(&[0u8, 0x1b, b'\r', b'\t', 0x7f, 0xff, 0xc3])),
            2 => {
                let word = format!(" {} ", pick_word(rng));
                bytes.splice(at..at, word.into_bytes());
            }
            3 => bytes.truncate(at),
            4 => bytes.make_ascii_uppercase(),
            _ => {
                let number = rng.pick(&NUMBERS).as_bytes().to_vec();
                bytes.splice(at..at, number);
            }
        }
    }
    bytes
}

/// Random bytes or random words.
fn random_line(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(60);
    if rng.chance(50) {
        (0..len)
            .map(|_| rng.next() as u8)
            .filter(|&b| b != b'\n')
            .collect()
    } else {
        let words: Vec<&str> = (0..1 + len / 6).map(|_| pick_word(rng)).collect();
        words.join(" ").into_bytes()
    }
}

/// A very long line: up to twice the reader's limit.
fn long_line(rng: &mut Rng) -> Vec<u8> {
    let len = 10_000 + rng.below(2 * MAX_LINE_BYTES);
    let unit: &[u8] = match rng.below(4) {
        0 => b"go ",
        1 => b"h2e2 ",
        2 => b"x\x00\x1b",
        _ => b"position startpos moves ",
    };
    unit.iter().copied().cycle().take(len).collect()
}

/// One of [`WORDS`].
fn pick_word(rng: &mut Rng) -> &'static str {
    let words: Vec<&'static str> = WORDS.split_whitespace().collect();
    words[rng.below(words.len())]
}

/// The next line to send (without its `\n`).
fn fuzz_line(rng: &mut Rng) -> Vec<u8> {
    match rng.below(1000) {
        0..=1 => long_line(rng),
        2..=549 => valid_line(rng).into_bytes(),
        550..=849 => mutated_line(rng),
        _ => random_line(rng),
    }
}

/// Whether a line may be sent: not one that ends the session, nor one that would take more
/// of the test machine than a test should (gigabytes of hash, a thousand threads).
fn may_send(line: &[u8]) -> bool {
    if line.len() > MAX_LINE_BYTES {
        return true;
    }
    match String::from_utf8_lossy(line).parse::<Command>() {
        Ok(Command::Quit) => false,
        Ok(Command::SetOption { name, value }) => {
            let n: i64 = value.and_then(|v| v.parse().ok()).unwrap_or(0);
            // Values beyond the option's range are refused, so they may go.
            match options::lookup(&name).map(|s| s.name()) {
                Some("Hash") => n <= 256 || n > MAX_HASH_MB as i64,
                Some("Threads") => n <= 4 || n > MAX_THREADS as i64,
                _ => true,
            }
        }
        _ => true,
    }
}

/// The engine under test, and the checks on everything it writes.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Vec<u8>>,
    /// The latest lines both ways, for a failure's report.
    recent: VecDeque<String>,
    seed: u64,
    sent: usize,
    /// `readyok`s still to come: fuzz lines may be `isready` too.
    readyoks_due: usize,
}

impl Engine {
    fn start(seed: u64) -> Engine {
        let mut child = Process::new(env!("CARGO_BIN_EXE_chuhan"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start chuhan");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = crossbeam_channel::unbounded();
        std::thread::spawn(move || loop {
            let mut line = Vec::new();
            match stdout.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        });
        Engine {
            stdin: child.stdin.take().unwrap(),
            child,
            rx,
            recent: VecDeque::new(),
            seed,
            sent: 0,
            readyoks_due: 0,
        }
    }

    fn remember(&mut self, line: String) {
        if self.recent.len() == 200 {
            self.recent.pop_front();
        }
        self.recent.push_back(line);
    }

    fn fail(&self, what: &str) -> ! {
        let recent: Vec<&str> = self.recent.iter().map(String::as_str).collect();
        panic!(
            "{what}\nseed {} after {} lines sent; latest traffic:\n{}",
            self.seed,
            self.sent,
            recent.join("\n")
        );
    }

    fn send(&mut self, line: &[u8]) {
        let shown = String::from_utf8_lossy(&line[..line.len().min(200)]);
        self.remember(format!(">> {shown:?} ({} bytes)", line.len()));
        let written = self
            .stdin
            .write_all(line)
            .and_then(|_| self.stdin.write_all(b"\n"))
            .and_then(|_| self.stdin.flush());
        if written.is_err() {
            self.fail("the engine closed its input");
        }
        self.sent += 1;
        if line.len() <= MAX_LINE_BYTES
            && String::from_utf8_lossy(line).parse::<Command>() == Ok(Command::IsReady)
        {
            self.readyoks_due += 1;
        }
    }

    /// The next line the engine writes, checked ([`Engine::inspect`]).
    fn next(&mut self, deadline: Instant) -> String {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(wait) {
            Ok(bytes) => self.inspect(bytes),
            Err(RecvTimeoutError::Timeout) => self.fail("no answer in time"),
            Err(RecvTimeoutError::Disconnected) => self.fail("the engine ended"),
        }
    }

    /// Check the lines written so far, without waiting.
    fn drain(&mut self) {
        while let Ok(bytes) = self.rx.try_recv() {
            self.inspect(bytes);
        }
    }

    /// One line the engine wrote, checked: UTF-8, no control characters, short, and nothing
    /// a GUI takes for a failed start.
    fn inspect(&mut self, bytes: Vec<u8>) -> String {
        let Ok(text) = String::from_utf8(bytes) else {
            self.fail("a line that is not UTF-8")
        };
        let line = text.strip_suffix('\n').unwrap_or(&text).to_string();
        self.remember(line.chars().take(300).collect());
        if line.chars().any(char::is_control) {
            self.fail(&format!("a control character in {line:?}"));
        }
        if line.len() > MAX_OUTPUT_LINE {
            self.fail(&format!("a line of {} bytes", line.len()));
        }
        let lower = line.to_lowercase();
        if START_FAILURE.iter().any(|p| lower.contains(p)) {
            self.fail(&format!("a line GUIs take for a failed start: {line}"));
        }
        if line == "readyok" {
            if self.readyoks_due == 0 {
                self.fail("readyok without isready");
            }
            self.readyoks_due -= 1;
        }
        line
    }

    /// Lines between the last two `readyok`s, after an `isready` (every `isready` sent
    /// before is answered first).
    fn sync(&mut self) -> Vec<String> {
        self.send(b"isready");
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let line = self.next(deadline);
            if line != "readyok" {
                lines.push(line);
            } else if self.readyoks_due == 0 {
                return lines;
            } else {
                lines.clear();
            }
        }
    }

    /// Lines up to and including the final line of a search.
    fn search(&mut self, go: &str) -> Vec<String> {
        self.send(go.as_bytes());
        let deadline = Instant::now() + PATIENCE;
        let mut lines = Vec::new();
        loop {
            let line = self.next(deadline);
            let done = is_final(&line);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }

    /// The position the engine says it has (`d`).
    fn position(&mut self) -> Position {
        self.send(b"d");
        let lines = self.sync();
        let Some(fen) = lines.iter().find_map(|l| l.strip_prefix("FEN: ")) else {
            self.fail("`d` shows no FEN")
        };
        match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => self.fail(&format!("`d` shows a bad FEN {fen}: {e}")),
        }
    }

    /// End whatever runs, then require a legal answer to a short search (see the module doc).
    fn check(&mut self) {
        // `stop` ends a search or perft; `Clear Hash` waits for the search thread, so the
        // last search's final line comes before `readyok`.
        self.send(b"stop");
        self.send(b"setoption name Clear Hash");
        self.sync();
        let pos = self.position();
        let lines = self.search("go depth 2");
        let last = lines.last().unwrap().clone();
        let extra = self.sync();
        if extra.iter().any(|l| is_final(l)) {
            self.fail(&format!("more than one final line: {extra:?}"));
        }
        match best_move(&last) {
            Some((best, ponder)) => self.assert_legal(&pos, &best, ponder.as_deref()),
            None if legal_moves(&pos).is_empty() => {}
            // Moves may be banned (`banmoves`): a fresh position must have its move.
            None => {
                self.send(format!("position fen {}", pos.to_fen()).as_bytes());
                let lines = self.search("go depth 2");
                match best_move(lines.last().unwrap()) {
                    Some((best, ponder)) => self.assert_legal(&pos, &best, ponder.as_deref()),
                    None => self.fail("no move in a position with legal moves"),
                }
            }
        }
    }

    fn assert_legal(&self, pos: &Position, best: &str, ponder: Option<&str>) {
        let Ok(m) = pos.parse_move(best) else {
            self.fail(&format!("illegal bestmove {best} in {}", pos.to_fen()))
        };
        if let Some(p) = ponder {
            let mut after = pos.clone();
            after.make_move(m);
            if after.parse_move(p).is_err() {
                self.fail(&format!("illegal ponder move {p} after {best}"));
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn is_final(line: &str) -> bool {
    line.starts_with("bestmove") || line == "nobestmove"
}

/// The move and ponder move of a final line; None for `bestmove (none)` and `nobestmove`.
fn best_move(line: &str) -> Option<(String, Option<String>)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["bestmove", "(none)", ..] | ["nobestmove", ..] => None,
        ["bestmove", m, rest @ ..] => {
            let ponder = match rest {
                ["ponder", p, ..] => Some(p.to_string()),
                _ => None,
            };
            Some((m.to_string(), ponder))
        }
        _ => panic!("not a final line: {line}"),
    }
}

#[test]
fn the_engine_survives_any_input() {
    let total = env_number("CHUHAN_FUZZ_LINES", 20_000) as usize;
    let seed = env_number("CHUHAN_FUZZ_SEED", 0x5EED_C0DE);
    let mut rng = Rng(seed);
    let mut engine = Engine::start(seed);
    let start = Instant::now();
    engine.send(rng.pick(&["uci", "ucci"]).as_bytes());
    let mut since_check = 0;
    let mut lines = 0;
    while lines < total {
        let line = fuzz_line(&mut rng);
        if !may_send(&line) {
            continue;
        }
        engine.send(&line);
        lines += 1;
        since_check += 1;
        engine.drain();
        if since_check == BLOCK || lines == total {
            engine.check();
            since_check = 0;
        }
    }
    engine.send(b"quit");
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = engine.child.try_wait() {
            eprintln!(
                "protocol fuzz: {lines} lines, seed {seed:#x}, {:.1} s",
                start.elapsed().as_secs_f64()
            );
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    engine.fail("`quit` did not end the engine");
}
