//! `fake_engine`: a tiny scripted engine for testing the match runner through real
//! processes. It answers `ucci`, `uci` or `xboard` (whichever comes first), and on each `go`
//! plays the move of its script for the current ply (the number of moves in the last
//! `position`; CECP: moves since `new` or `setboard`), or a legal move when the script has
//! none. Faults on demand:
//!
//! ```text
//! --line "m1 m2 …"    the game from the root, both sides' moves (each engine plays its own)
//! --play-at N:TEXT    at ply N answer `bestmove TEXT` (e.g. an illegal move)
//! --sleep-at N:MS     at ply N wait MS ms before answering (time forfeit)
//! --crash-at N        at ply N exit with status 3 without answering
//! --hang-at N         at ply N never answer
//! --flood-from N      from ply N on print `info` lines without end, never `bestmove`
//! --flood-line-from N from ply N on print one endless line (no newline), never `bestmove`
//! --illegal          always answer `bestmove a0a0` (never legal)
//! --resign-at N       at ply N answer with `resign` (UCCI style)
//! --score CP          report this score (own view) in an `info` line before each move
//! --delay MS          think MS ms on every move
//! --random            when off-script, pick a legal move by the position's key (else the first)
//! --pidfile PATH      append our process id to PATH at start
//! --start-once PATH   start only if PATH does not exist (and create it): a restart fails
//! --log PATH          append every line it is sent to PATH
//! ```
//! CECP only:
//! ```text
//! --features "A|B"    the `feature` lines sent after `protover`, `|` between lines, "" none
//!                     (default: done=0, then myname, ping=1, setboard=1, variants, done=1)
//! --reject-at N       answer `Illegal move: M` to the move sent at ply N (a broken peer)
//! --claim-at N:TEXT   at ply N print TEXT (a result claim such as `1/2-1/2 {Draw}`) first
//! --garbage           print junk lines before every move
//! ```
//! `--resign-at` prints `resign` in CECP. With `usermove=1` among its features it takes moves
//! only as `usermove M` (a bare move is an unknown command).
//! Not a player: it exists for tests and demonstrations of `chuhan match`. An example, not a
//! binary, so `cargo install` leaves it out; `cargo test` builds every example, and the tests
//! find it beside their own executable (`tests/common/mod.rs`, `fake_engine`).

use chuhan::board::movegen::legal_moves;
use chuhan::board::position::{MoveError, Position};
use chuhan::board::position_line::PositionSpec;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Default)]
struct Script {
    line: Vec<String>,
    play_at: HashMap<usize, String>,
    sleep_at: HashMap<usize, u64>,
    crash_at: Option<usize>,
    hang_at: Option<usize>,
    flood_from: Option<usize>,
    flood_line_from: Option<usize>,
    resign_at: Option<usize>,
    score: Option<i32>,
    delay: u64,
    random: bool,
    illegal: bool,
    log: Option<String>,
    features: Option<String>,
    reject_at: Option<usize>,
    claim_at: HashMap<usize, String>,
    garbage: bool,
}

/// The feature lines a CECP fake sends unless told otherwise.
const DEFAULT_FEATURES: &str = "feature done=0|feature myname=\"FakeXboard 1.0\" ping=1 \
                                setboard=1|feature variants=\"xiangqi\" done=1";

fn parse_at(v: &str) -> (usize, String) {
    let (n, rest) = v.split_once(':').expect("N:VALUE");
    (n.parse().expect("ply number"), rest.to_string())
}

fn parse_args() -> Script {
    let mut s = Script::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let mut val = || {
            i += 1;
            args.get(i).cloned().expect("flag value")
        };
        match flag {
            "--line" => s.line = val().split_whitespace().map(str::to_string).collect(),
            "--play-at" => {
                let (n, m) = parse_at(&val());
                s.play_at.insert(n, m);
            }
            "--sleep-at" => {
                let (n, ms) = parse_at(&val());
                s.sleep_at.insert(n, ms.parse().expect("ms"));
            }
            "--crash-at" => s.crash_at = Some(val().parse().expect("ply")),
            "--hang-at" => s.hang_at = Some(val().parse().expect("ply")),
            "--flood-from" => s.flood_from = Some(val().parse().expect("ply")),
            "--flood-line-from" => s.flood_line_from = Some(val().parse().expect("ply")),
            "--resign-at" => s.resign_at = Some(val().parse().expect("ply")),
            "--score" => s.score = Some(val().parse().expect("cp")),
            "--delay" => s.delay = val().parse().expect("ms"),
            "--random" => s.random = true,
            "--illegal" => s.illegal = true,
            "--log" => s.log = Some(val()),
            "--features" => s.features = Some(val()),
            "--reject-at" => s.reject_at = Some(val().parse().expect("ply")),
            "--claim-at" => {
                let (n, text) = parse_at(&val());
                s.claim_at.insert(n, text);
            }
            "--garbage" => s.garbage = true,
            "--pidfile" => {
                let path = val();
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .expect("pidfile");
                // One write call, so concurrent engines never interleave their lines.
                f.write_all(format!("{}\n", std::process::id()).as_bytes())
                    .expect("write pidfile");
            }
            "--start-once" => {
                let path = val();
                if std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(path)
                    .is_err()
                {
                    std::process::exit(1);
                }
            }
            other => panic!("unknown flag {other}"),
        }
        i += 1;
    }
    s
}

/// `position …` (or `fen …`/`startpos …`) → the position and the number of moves in it.
fn set_position(line: &str) -> Option<(Position, usize)> {
    let spec = PositionSpec::parse(line).ok()?;
    Some((spec.play().ok()?, spec.moves.len()))
}

/// Write `chunk` over and over, 64 KB at a time (as `yes` does), until the reader goes away
/// (the write fails), then exit: a runner that does not bound what it reads runs out of memory.
fn flood(out: &mut std::io::Stdout, chunk: &[u8]) -> ! {
    let block = chunk.repeat(64 * 1024 / chunk.len());
    let mut out = out.lock();
    while out.write_all(&block).is_ok() {}
    std::process::exit(0);
}

fn main() {
    let script = parse_args();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut ucci = true;
    let mut current: Option<(Position, usize)> = None;
    let say = |out: &mut std::io::Stdout, s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    let mut log = script.log.as_ref().map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("log file")
    });
    let mut lines = stdin.lock().lines();
    while let Some(Ok(line)) = lines.next() {
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{line}");
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("xboard") => {
                return cecp(&script, &mut out, || {
                    let line = lines.next()?.ok()?;
                    if let Some(f) = log.as_mut() {
                        let _ = writeln!(f, "{line}");
                    }
                    Some(line)
                })
            }
            Some("ucci") => {
                ucci = true;
                say(&mut out, "id name FakeEngine");
                say(&mut out, "option usemillisec type check default true");
                say(&mut out, "ucciok");
            }
            Some("uci") => {
                ucci = false;
                say(&mut out, "id name FakeEngine");
                say(&mut out, "uciok");
            }
            Some("isready") => say(&mut out, "readyok"),
            Some("quit") => {
                if ucci {
                    say(&mut out, "bye");
                }
                return;
            }
            Some("position") | Some("fen") | Some("startpos") => current = set_position(&line),
            Some("go") => {
                let Some((pos, ply)) = current.as_ref() else {
                    say(&mut out, "info string no position");
                    continue;
                };
                let Some(mv) = think(&script, &mut out, pos, *ply) else {
                    continue;
                };
                if let Some(cp) = script.score {
                    if ucci {
                        say(&mut out, &format!("info depth 1 score {cp} nodes 1 time 0"));
                    } else {
                        say(
                            &mut out,
                            &format!("info depth 1 score cp {cp} nodes 1 time 0"),
                        );
                    }
                }
                match mv {
                    Some(m) if script.resign_at == Some(*ply) => {
                        say(&mut out, &format!("bestmove {m} resign"))
                    }
                    Some(m) => say(&mut out, &format!("bestmove {m}")),
                    None if ucci => say(&mut out, "nobestmove"),
                    None => say(&mut out, "bestmove (none)"),
                }
            }
            _ => {}
        }
    }
}

/// The engine's side of a turn: faults first (crash, hang, flood, sleep), then the move to
/// play (`None` inside: no legal move). `None`: it hangs (never answers).
fn think(
    script: &Script,
    out: &mut std::io::Stdout,
    pos: &Position,
    ply: usize,
) -> Option<Option<String>> {
    if script.crash_at == Some(ply) {
        std::process::exit(3);
    }
    if script.hang_at == Some(ply) {
        return None;
    }
    if script.flood_from.is_some_and(|n| ply >= n) {
        flood(out, b"info\n");
    }
    if script.flood_line_from.is_some_and(|n| ply >= n) {
        flood(out, b"info string x");
    }
    let pause = script.delay + script.sleep_at.get(&ply).copied().unwrap_or(0);
    if pause > 0 {
        std::thread::sleep(Duration::from_millis(pause));
    }
    let legal = legal_moves(pos);
    Some(if script.illegal {
        Some("a0a0".to_string())
    } else if let Some(t) = script.play_at.get(&ply) {
        Some(t.clone())
    } else if let Some(t) = script.line.get(ply) {
        Some(t.clone())
    } else if legal.is_empty() {
        None
    } else {
        let i = if script.random {
            (pos.key() % legal.len() as u64) as usize
        } else {
            0
        };
        Some(legal.as_slice()[i].to_string())
    })
}

/// CECP (after `xboard`): the engine keeps its own board, moves only on `go`, and answers
/// `move M`. `next` gives the next line from the runner (`None`: input closed).
fn cecp(script: &Script, out: &mut std::io::Stdout, mut next: impl FnMut() -> Option<String>) {
    let say = |out: &mut std::io::Stdout, s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    let features = script.features.as_deref().unwrap_or(DEFAULT_FEATURES);
    let usermove = features.contains("usermove=1");
    let mut pos = Position::startpos();
    let mut ply = 0;
    while let Some(line) = next() {
        let (command, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        match command {
            "protover" => {
                for f in features.split('|').filter(|f| !f.is_empty()) {
                    say(out, f);
                }
            }
            "ping" => say(out, &format!("pong {rest}")),
            "quit" => return,
            "new" => (pos, ply) = (Position::startpos(), 0),
            "setboard" => match Position::from_fen(rest) {
                Ok(p) => (pos, ply) = (p, 0),
                Err(_) => say(out, "tellusererror Illegal position"),
            },
            "go" => {
                if let Some(text) = script.claim_at.get(&ply) {
                    say(out, text);
                }
                let Some(mv) = think(script, out, &pos, ply) else {
                    continue;
                };
                if script.garbage {
                    for junk in [
                        "what is this",
                        "move",
                        "bestmove h2e2",
                        "1 2 3",
                        "\u{1}\u{2}",
                    ] {
                        say(out, junk);
                    }
                }
                if let Some(cp) = script.score {
                    // A check search at depth 0 first (as MaxQi prints): not the score.
                    say(out, "0 9999 0 1 a0a1");
                    say(out, &format!("1 {cp} 0 1 {}", mv.as_deref().unwrap_or("")));
                }
                match mv {
                    _ if script.resign_at == Some(ply) => say(out, "resign"),
                    Some(m) => {
                        say(out, &format!("move {m}"));
                        if let Ok(mv) = pos.parse_move(&m) {
                            pos.make_move(mv);
                            ply += 1;
                        }
                    }
                    None => say(out, "resign"),
                }
            }
            _ => {
                let text = match command {
                    "usermove" if usermove => rest,
                    _ if !usermove => line.trim(),
                    _ => "",
                };
                let Ok(mv) = pos.parse_move(text) else {
                    // Not a move: a command it need not act on (force, level, time, …).
                    let looks_like_a_move =
                        !matches!(pos.parse_move(command), Err(MoveError::Syntax(_)));
                    if usermove && looks_like_a_move {
                        say(out, &format!("Error (unknown command): {command}"));
                    }
                    continue;
                };
                if script.reject_at == Some(ply) {
                    say(out, &format!("Illegal move: {text}"));
                    continue;
                }
                pos.make_move(mv);
                ply += 1;
            }
        }
    }
}
