//! The match runner through real processes: the referee on scripted games played by the fake
//! engine (`examples/fake_engine.rs`), the `chuhan match` command end to end (PGN written and
//! read back, SPRT early stop, engine reuse), and no child left behind after Ctrl-C.

mod common;

use chuhan::board::notation::Notation;
use chuhan::engine::openings::{parse_line, Opening};
use chuhan::tools::match_runner::clock::TimeControl;
use chuhan::tools::match_runner::engine_process::{
    self, live_count, EngineFault, EngineProcess, EngineSpec, Protocol,
};
use chuhan::tools::match_runner::game::{play_game, Adjudication, GameRecord, GameSettings};
use chuhan::tools::match_runner::pgn::{read_pgn, write_game};
use chuhan::tools::match_runner::referee::{GameResult, RuleChoice, Termination};
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The fake engine: an example, found beside this test (`common::fake_engine`).
static FAKE: LazyLock<String> = LazyLock::new(common::fake_engine);
const CHUHAN: &str = env!("CARGO_BIN_EXE_chuhan");

fn fake(name: &str, proto: Protocol, args: &[&str]) -> EngineSpec {
    EngineSpec {
        name: name.to_string(),
        cmd: FAKE.to_string(),
        args: args.iter().map(|s| s.to_string()).collect(),
        dir: None,
        proto,
        options: vec![("Hash".to_string(), "16".to_string())],
        tc: None,
    }
}

fn settings(tc: &str, rules: RuleChoice) -> GameSettings {
    GameSettings {
        tc: TimeControl::parse(tc).unwrap(),
        margin_ms: 50,
        untimed_timeout_ms: 1_000,
        rules,
        adjudication: Adjudication::default(),
    }
}

fn opening(line: &str) -> Opening {
    parse_line(line).unwrap().unwrap()
}

/// Play one game between two fake engines, both given the same extra arguments.
fn play(red: &[&str], black: &[&str], open: &Opening, s: &GameSettings) -> GameRecord {
    let mut r = EngineProcess::start(&fake("red", Protocol::Ucci, red)).unwrap();
    let mut b = EngineProcess::start(&fake("black", Protocol::Uci, black)).unwrap();
    play_game(
        &mut r,
        &mut b,
        "red",
        "black",
        open,
        s,
        &AtomicBool::new(false),
    )
    .unwrap()
}

fn scripted(fen: &str, line: &str, rules: RuleChoice) -> GameRecord {
    let args = ["--line", line];
    play(&args, &args, &opening(fen), &settings("depth=1", rules))
}

#[test]
fn checkmate_ends_the_game() {
    let rec = scripted("4k4/R8/9/9/9/9/9/9/9/1R1K5 w", "b0b9", RuleChoice::Chinese);
    assert_eq!(rec.verdict.result, GameResult::RedWins);
    assert_eq!(rec.verdict.termination, Termination::Rules);
    assert!(
        rec.verdict.reason.contains("checkmate"),
        "{}",
        rec.verdict.reason
    );
    assert_eq!(rec.moves.len(), 1);
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    let rec = scripted("3k5/4P4/9/4P4/9/9/9/9/9/4K4 w", "e6e7", RuleChoice::Chinese);
    assert_eq!(rec.verdict.result, GameResult::RedWins);
    assert!(
        rec.verdict.reason.contains("stalemate"),
        "{}",
        rec.verdict.reason
    );
}

/// Red's rook checks on ranks 9 and 8 while Black's king steps e9-e8-e9: a one-sided
/// perpetual check, which Red loses under Chinese rules and which is a draw under `draw`.
const PERPETUAL_FEN: &str = "4k4/9/9/9/9/9/9/9/9/R2K5 w";
const PERPETUAL_LINE: &str = "a0a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";

#[test]
fn perpetual_check_loses() {
    let rec = scripted(PERPETUAL_FEN, PERPETUAL_LINE, RuleChoice::Chinese);
    assert_eq!(
        rec.verdict.result,
        GameResult::BlackWins,
        "{:?}",
        rec.verdict
    );
    assert_eq!(rec.verdict.termination, Termination::Rules);
    assert!(
        rec.verdict.reason.to_lowercase().contains("perpetual"),
        "{}",
        rec.verdict.reason
    );
    assert!(rec.moves.len() <= 12);
    // With "all repetitions draw" the same game is a draw.
    let rec = scripted(PERPETUAL_FEN, PERPETUAL_LINE, RuleChoice::Draw);
    assert_eq!(rec.verdict.result, GameResult::Draw, "{:?}", rec.verdict);
}

/// Black's rook follows Red's unprotected cannon between files a and b: a perpetual chase by
/// Black (Red only flees), which Black loses.
#[test]
fn perpetual_chase_loses() {
    let rec = scripted(
        "1r3k3/9/9/9/9/9/9/C8/9/4K4 b",
        "b9a9 a2b2 a9b9 b2a2 b9a9 a2b2 a9b9 b2a2 b9a9 a2b2 a9b9 b2a2",
        RuleChoice::Chinese,
    );
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::Rules);
}

#[test]
fn sixty_moves_without_capture_draw() {
    // The FEN's counter says 118 plies without a capture; two quiet moves reach 120.
    let rec = scripted(
        "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 118 70",
        "a1a2 d9d8",
        RuleChoice::Chinese,
    );
    assert_eq!(rec.verdict.result, GameResult::Draw, "{:?}", rec.verdict);
    assert!(rec.verdict.reason.contains("60"), "{}", rec.verdict.reason);
    assert_eq!(rec.moves.len(), 2);
}

#[test]
fn illegal_move_loses() {
    let s = settings("depth=1", RuleChoice::Chinese);
    let rec = play(&[], &["--play-at", "1:h7h0"], &opening("h2e2"), &s);
    // Ply 1, after the book move: Black's cannon h7 "captures" h0 with no screen: illegal.
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::IllegalMove);
    assert!(
        rec.verdict.reason.contains("illegal move 'h7h0'"),
        "{}",
        rec.verdict.reason
    );
    // Garbage is illegal too.
    let rec = play(&["--play-at", "0:xyzzy"], &[], &Opening::startpos(), &s);
    assert_eq!(rec.verdict.result, GameResult::BlackWins);
    assert_eq!(rec.verdict.termination, Termination::IllegalMove);
}

#[test]
fn time_forfeit_loses() {
    // 0.3 s for the game, 50 ms margin: a 600 ms move loses on time, measured by the runner.
    let s = settings("0.3+0", RuleChoice::Chinese);
    let rec = play(&[], &["--sleep-at", "1:600"], &Opening::startpos(), &s);
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::TimeForfeit);
    assert!(
        rec.verdict.reason.contains("on time"),
        "{}",
        rec.verdict.reason
    );
    // Fixed time per move: the same.
    let s = settings("st=0.25", RuleChoice::Chinese);
    let rec = play(&["--sleep-at", "2:900"], &[], &Opening::startpos(), &s);
    assert_eq!(
        rec.verdict.result,
        GameResult::BlackWins,
        "{:?}",
        rec.verdict
    );
    assert_eq!(rec.verdict.termination, Termination::TimeForfeit);
}

#[test]
fn crash_and_silence_lose() {
    let s = settings("depth=1", RuleChoice::Chinese);
    let rec = play(&["--crash-at", "2"], &[], &Opening::startpos(), &s);
    assert_eq!(
        rec.verdict.result,
        GameResult::BlackWins,
        "{:?}",
        rec.verdict
    );
    assert_eq!(rec.verdict.termination, Termination::Crash);
    assert!(
        rec.verdict.reason.contains("crashed"),
        "{}",
        rec.verdict.reason
    );
    // Fixed depth, no answer within the 1 s timeout.
    let rec = play(&[], &["--hang-at", "1"], &Opening::startpos(), &s);
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::NoAnswer);
}

#[test]
fn resignation_and_score_adjudication() {
    let s = settings("depth=1", RuleChoice::Chinese);
    let rec = play(&[], &["--resign-at", "3"], &Opening::startpos(), &s);
    assert_eq!(rec.verdict.result, GameResult::RedWins);
    assert_eq!(rec.verdict.termination, Termination::Resignation);
    // Both engines say Red is 700 cp up (Black reports -700 from its own view).
    let mut s = settings("depth=1", RuleChoice::Chinese);
    s.adjudication.resign = Some((3, 600));
    let rec = play(
        &["--score", "700"],
        &["--score", "-700"],
        &Opening::startpos(),
        &s,
    );
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::Adjudication);
    assert_eq!(rec.moves.len(), 6);
}

#[test]
fn extreme_reported_scores_are_harmless() {
    // i32::MIN from the engine: negating it (Black's view to Red's) or comparing it with the
    // adjudication thresholds must not overflow.
    let mut s = settings("depth=1", RuleChoice::Chinese);
    s.adjudication.resign = Some((2, 1000));
    let rec = play(
        &["--score", "2147483647"],
        &["--score", "-2147483648"],
        &Opening::startpos(),
        &s,
    );
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::Adjudication);
}

#[test]
fn pgn_round_trip_in_both_notations() {
    let s = settings("depth=1", RuleChoice::Chinese);
    let games = [
        play(&["--random"], &["--random"], &opening("h2e2 h9g7"), &s),
        scripted(PERPETUAL_FEN, PERPETUAL_LINE, RuleChoice::Chinese),
    ];
    for notation in [Notation::Iccs, Notation::Wxf] {
        let text: String = games
            .iter()
            .enumerate()
            .map(|(i, g)| write_game(g, "test", i + 1, "2024.01.01", notation))
            .collect();
        let back = read_pgn(&text).unwrap();
        assert_eq!(back.len(), 2);
        for (g, b) in games.iter().zip(&back) {
            assert_eq!(b.moves, g.all_moves());
            assert_eq!(b.result, g.verdict.result.pgn());
            assert_eq!(b.tag("Game"), Some("Chinese Chess"));
            assert_eq!(b.tag("Variant"), Some("xiangqi"));
            assert_eq!(b.tag("Red"), Some("red"));
            assert_eq!(b.tag("Black"), Some("black"));
            assert_eq!(b.tag("Result"), Some(g.verdict.result.pgn()));
            assert_eq!(b.tag("TimeControl"), Some("-"));
            assert_eq!(b.tag("Termination"), Some(g.verdict.reason.as_str()));
            assert_eq!(b.tag("FEN").is_some(), !g.from_start());
        }
        assert_eq!(back[1].fen, games[1].root_fen);
    }
}

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

#[test]
fn chuhan_match_end_to_end() {
    let pgn = temp_path("e2e.pgn");
    let pids = temp_path("e2e.pids");
    let book = temp_path("book.txt");
    std::fs::write(&book, "h2e2 h9g7\nc3c4 c6c5\n").unwrap();
    let pidfile = pids.to_str().unwrap();
    let out = Command::new(CHUHAN)
        .args([
            "match",
            "-engine",
            &format!("cmd={}", *FAKE),
            "name=alpha",
            "proto=ucci",
        ])
        .args(["arg=--random", "arg=--pidfile", &format!("arg={pidfile}")])
        .args([
            "-engine",
            &format!("cmd={}", *FAKE),
            "name=beta",
            "proto=uci",
        ])
        .args(["arg=--pidfile", &format!("arg={pidfile}")])
        .args(["-tc", "depth=1", "-games", "4", "-concurrency", "1"])
        .args(["-openings", book.to_str().unwrap()])
        .args(["-pgnout", pgn.to_str().unwrap(), "-notation", "wxf"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("[4/4]"), "{stdout}");
    assert!(stdout.contains("Match finished: 4 games"), "{stdout}");
    assert!(stdout.contains("alpha vs beta: W "), "{stdout}");
    assert!(stdout.contains("Ptnml(0-2)"), "{stdout}");
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("Format"), Some("WXF"));
        assert!(["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()));
        assert!(g.moves.len() >= 2);
    }
    // Each opening twice, colours swapped.
    assert_eq!(
        games
            .iter()
            .filter(|g| g.tag("Red") == Some("alpha"))
            .count(),
        2
    );
    // Engines were started once and reused for all four games.
    let started = std::fs::read_to_string(&pids).unwrap().lines().count();
    assert_eq!(started, 2);
}

#[test]
fn sprt_stops_early() {
    // beta always answers an illegal move, so alpha wins every game: H1 quickly.
    let out = Command::new(CHUHAN)
        .args(["match", "-engine", &format!("cmd={}", *FAKE), "name=alpha"])
        .args(["-engine", &format!("cmd={}", *FAKE), "name=beta"])
        .args(["arg=--illegal"])
        .args(["-tc", "depth=1", "-concurrency", "2"])
        .args(["-sprt", "elo0=0", "elo1=50"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert!(stdout.contains("illegal move"), "{stdout}");
    let finished: usize = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Match finished: "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(finished < 100, "{finished} games");
}

fn alive(pid: u32) -> bool {
    // A reaped process has no /proc entry; a zombie would show state Z.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => !stat.contains(") Z "),
        Err(_) => false,
    }
}

#[test]
#[cfg(target_os = "linux")]
fn ctrl_c_leaves_no_engine_behind() {
    let pids = temp_path("ctrlc.pids");
    let pidfile = pids.to_str().unwrap();
    let mut child = Command::new(CHUHAN)
        .args(["match", "-engine", &format!("cmd={}", *FAKE), "name=a"])
        .args([
            "arg=--delay",
            "arg=200",
            "arg=--pidfile",
            &format!("arg={pidfile}"),
        ])
        .args(["-engine", &format!("cmd={}", *FAKE), "name=b"])
        .args([
            "arg=--delay",
            "arg=200",
            "arg=--pidfile",
            &format!("arg={pidfile}"),
        ])
        .args(["-tc", "depth=1", "-concurrency", "2", "-games", "8"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until all four engines are up, then interrupt.
    let t0 = Instant::now();
    while std::fs::read_to_string(&pids).map_or(0, |s| s.lines().count()) < 4 {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "engines did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let engine_pids: Vec<u32> = std::fs::read_to_string(&pids)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    for pid in engine_pids {
        assert!(!alive(pid), "engine {pid} outlived the runner");
    }
}

#[test]
#[cfg(target_os = "linux")]
fn engines_are_reaped_on_drop() {
    for proto in [Protocol::Ucci, Protocol::Uci] {
        let e = EngineProcess::start(&fake("x", proto, &[])).unwrap();
        assert_eq!(e.id_name(), Some("FakeEngine"));
        let pid = e.pid();
        assert!(alive(pid));
        assert!(live_count() >= 1);
        drop(e);
        assert!(!alive(pid), "engine {pid} survived its drop");
    }
}

/// `chuhan match` with `engine` as the second engine, by the fake engine; its output.
fn match_against(engine: &str, extra: &[&str]) -> std::process::Output {
    Command::new(CHUHAN)
        .args(["match", "-engine", &format!("cmd={}", *FAKE), "name=ok"])
        .args(["-engine", &format!("cmd={engine}"), "name=bad"])
        .args(extra)
        .args(["-tc", "depth=1", "-concurrency", "2", "-games", "200"])
        .output()
        .unwrap()
}

#[test]
fn an_engine_that_cannot_start_aborts_the_match() {
    // A missing program, a directory, a program that exits at once: no game is played, the
    // match stops with a message naming the engine and a non-zero exit.
    for engine in ["/nonexistent/engine", "/", "/bin/true"] {
        let out = match_against(engine, &[]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{engine}: {stdout}");
        assert!(
            stderr.contains("match aborted: engine 'bad' cannot be started"),
            "{engine}: {stderr}"
        );
        assert!(!stdout.contains("[1/"), "{engine}: {stdout}");
    }
}

#[test]
fn an_engine_that_cannot_be_restarted_aborts_the_match() {
    // The engine starts once, crashes in its first game and then refuses to start again: the
    // match stops instead of scoring the remaining 199 games as forfeits.
    let marker = temp_path("started-once");
    let marker = marker.to_str().unwrap();
    let book = temp_path("restart-book.txt");
    std::fs::write(&book, "h2e2\n").unwrap();
    let out = Command::new(CHUHAN)
        .args(["match", "-engine", &format!("cmd={}", *FAKE), "name=ok"])
        .args(["-engine", &format!("cmd={}", *FAKE), "name=bad"])
        .args([
            "arg=--crash-at",
            "arg=1",
            "arg=--start-once",
            &format!("arg={marker}"),
        ])
        .args(["-tc", "depth=1", "-concurrency", "1", "-games", "200"])
        .args(["-openings", book.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}");
    assert!(
        stderr.contains("match aborted: engine 'bad' cannot be restarted"),
        "{stderr}"
    );
    assert!(stdout.contains("engine crashed"), "{stdout}");
    assert!(stdout.contains("Match finished: 1 games"), "{stdout}");
}

/// Run `f` on a thread and fail the test if it takes longer than `limit` (a hung runner would
/// otherwise hang the whole test binary).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit)
        .unwrap_or_else(|_| panic!("still running after {limit:?}"))
}

#[test]
fn a_flooding_engine_loses_at_its_deadline() {
    // Black prints `info` lines without end after `go`: it loses on time at 0.2 s + 50 ms, not
    // never. The same with one endless line, and with no clock ("does not answer").
    let cases = [
        ("st=0.2", "--flood-from", Termination::TimeForfeit),
        ("st=0.2", "--flood-line-from", Termination::TimeForfeit),
        ("depth=1", "--flood-from", Termination::NoAnswer),
    ];
    for (tc, flag, termination) in cases {
        let t0 = Instant::now();
        let rec = within(Duration::from_secs(20), move || {
            let s = settings(tc, RuleChoice::Chinese);
            play(&[], &[flag, "1"], &Opening::startpos(), &s)
        });
        assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
        assert_eq!(rec.verdict.termination, termination, "{tc} {flag}");
        assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    }
}

#[test]
#[cfg(unix)]
fn a_flood_during_the_handshake_times_out() {
    // `yes` never says `ucciok`: the handshake gives up at its deadline.
    let t0 = Instant::now();
    let started = within(Duration::from_secs(30), || {
        let mut spec = fake("yes", Protocol::Ucci, &[]);
        spec.cmd = "yes".to_string();
        EngineProcess::start(&spec).map(|_| ())
    });
    assert_eq!(started, Err(EngineFault::Timeout));
    assert!(t0.elapsed() < engine_process::HANDSHAKE_TIMEOUT + Duration::from_secs(5));
}

/// The resident memory of process `pid`, KiB (`VmRSS` in /proc), if it is still there.
#[cfg(target_os = "linux")]
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
#[cfg(target_os = "linux")]
fn chuhan_match_against_a_flooder_ends_with_flat_memory() {
    let book = temp_path("flood-book.txt");
    std::fs::write(&book, "h2e2 h9g7\n").unwrap();
    let mut child = Command::new(CHUHAN)
        .args([
            "match",
            "-engine",
            &format!("cmd={}", *FAKE),
            "name=flooder",
        ])
        .args(["arg=--flood-from", "arg=0"])
        .args(["-engine", &format!("cmd={}", *FAKE), "name=quiet"])
        .args(["-tc", "st=0.5", "-margin", "50", "-games", "4"])
        .args(["-concurrency", "1", "-openings", book.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let mut max_rss = 0;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        max_rss = max_rss.max(rss_kib(child.id()).unwrap_or(0));
        if t0.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the match did not end in 30 s (max RSS {max_rss} KiB)");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(status.success(), "{stdout}");
    assert!(stdout.contains("Match finished: 4 games"), "{stdout}");
    // Every game lost on time by the flooder, which was killed and restarted for each.
    assert_eq!(stdout.matches("loses on time").count(), 4, "{stdout}");
    assert!(stdout.contains("flooder vs quiet: W 0 D 0 L 4"), "{stdout}");
    assert!(max_rss < 64 * 1024, "max RSS {max_rss} KiB");
}
