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
    play_as((Protocol::Ucci, red), (Protocol::Uci, black), open, s)
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

// CECP (`proto=xboard`): the fake engine speaks it after `xboard`, keeps its own board, and
// logs what it is sent (`--log`), so the client's side of the talk is checked line by line.

/// One game: Red speaks `red_proto`, Black `black_proto`, each with its own fake arguments.
/// Play one game between two fake engines, each with its protocol and extra arguments.
fn play_as(
    (red_proto, red): (Protocol, &[&str]),
    (black_proto, black): (Protocol, &[&str]),
    open: &Opening,
    s: &GameSettings,
) -> GameRecord {
    let mut r = EngineProcess::start(&fake("red", red_proto, red)).unwrap();
    let mut b = EngineProcess::start(&fake("black", black_proto, black)).unwrap();
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

/// A game against a UCI fake with Black speaking CECP with `args`.
fn black_xboard(args: &[&str], open: &Opening, tc: &str) -> GameRecord {
    let s = settings(tc, RuleChoice::Chinese);
    play_as((Protocol::Uci, &[]), (Protocol::Xboard, args), open, &s)
}

fn log_lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn an_xboard_engine_plays_a_whole_game() {
    let log = temp_path("xboard-game.log");
    let log_arg = log.to_str().unwrap();
    let s = settings("5+0.05", RuleChoice::Chinese);
    let open = opening("h2e2 h9g7");
    let rec = play_as(
        (Protocol::Xboard, &["--random", "--log", log_arg]),
        (Protocol::Uci, &["--random"]),
        &open,
        &s,
    );
    assert_eq!(
        rec.verdict.termination,
        Termination::Rules,
        "{:?}",
        rec.verdict
    );
    assert!(rec.moves.len() >= 10, "{} moves", rec.moves.len());
    let sent = log_lines(&log);
    // The handshake: every feature answered, the ready check by ping.
    for line in [
        "xboard",
        "protover 2",
        "accepted done",
        "accepted myname",
        "accepted ping",
        "accepted setboard",
        "accepted variants",
        "ping 1",
    ] {
        assert!(sent.iter().any(|l| l == line), "no '{line}' in {sent:?}");
    }
    // The new game, in order, then the opening and the clocks (centiseconds) before `go`.
    let at = |line: &str| sent.iter().position(|l| l == line).unwrap();
    let order = [
        "new",
        "variant xiangqi",
        "force",
        "easy",
        "post",
        "level 0 0:05 0.05",
        "ping 2",
        "h2e2",
        "h9g7",
        "time 500",
        "otim 500",
        "go",
    ];
    let positions: Vec<usize> = order.iter().map(|l| at(l)).collect();
    assert!(positions.windows(2).all(|w| w[0] < w[1]), "{sent:?}");
    // Every move it did not play itself was sent once, in the game's order (the last one
    // only if the game went on after it).
    let moves: Vec<String> = sent
        .iter()
        .filter(|l| l.len() == 4 && l.chars().nth(1).is_some_and(|c| c.is_ascii_digit()))
        .cloned()
        .collect();
    let expected: Vec<String> = rec
        .all_moves()
        .iter()
        .enumerate()
        .filter(|(i, _)| *i < open.moves.len() || i % 2 == 1)
        .map(|(_, m)| m.to_string())
        .collect();
    assert!(expected.starts_with(&moves), "{moves:?} vs {expected:?}");
    assert!(
        moves.len() + 1 >= expected.len(),
        "{moves:?} vs {expected:?}"
    );
    // After each of its moves it is put back into force mode.
    assert_eq!(
        sent.iter().filter(|l| *l == "go").count(),
        sent.iter().filter(|l| *l == "force").count() - 1,
        "{sent:?}"
    );
}

#[test]
fn xboard_names_scores_and_usermove() {
    let e = EngineProcess::start(&fake("x", Protocol::Xboard, &[])).unwrap();
    assert_eq!(e.id_name(), Some("FakeXboard 1.0"));
    drop(e);
    // usermove=1: moves go as `usermove M` (a bare move would be an unknown command, and a
    // protocol error). The score comes from the depth-1 line, not the depth-0 check line.
    let features = "feature usermove=1 ping=1 setboard=1 done=1";
    let log = temp_path("xboard-usermove.log");
    let args = [
        "--features",
        features,
        "--score",
        "-40",
        "--log",
        log.to_str().unwrap(),
    ];
    let rec = black_xboard(&args, &opening("h2e2"), "depth=1");
    assert_eq!(
        rec.verdict.termination,
        Termination::Rules,
        "{:?}",
        rec.verdict
    );
    let sent = log_lines(&log);
    assert!(sent.iter().any(|l| l == "usermove h2e2"), "{sent:?}");
    assert!(sent.iter().any(|l| l == "sd 1"), "{sent:?}");
    // The opening is one ply: Black plays the first engine move.
    let black_moves: Vec<_> = rec.moves.iter().step_by(2).collect();
    assert!(!black_moves.is_empty());
    for m in black_moves {
        assert_eq!(m.score, Some(engine_process::Score::Cp(-40)));
        assert_eq!(m.depth, Some(1));
    }
}

#[test]
fn xboard_faults_lose_with_a_reason() {
    let start = Opening::startpos();
    // An illegal move, an unreadable one after junk lines (which are ignored), a resignation.
    // After the book's h2e2 the cannon on h7 has no screen to take h0 with.
    let rec = black_xboard(&["--play-at", "1:h7h0"], &opening("h2e2"), "depth=1");
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::IllegalMove);
    assert!(
        rec.verdict.reason.contains("illegal move 'h7h0'"),
        "{:?}",
        rec.verdict
    );
    let rec = black_xboard(&["--garbage", "--play-at", "5:xyzzy"], &start, "depth=1");
    assert_eq!(
        rec.verdict.termination,
        Termination::IllegalMove,
        "{:?}",
        rec.verdict
    );
    assert!(
        rec.verdict.reason.contains("unreadable move 'xyzzy'"),
        "{:?}",
        rec.verdict
    );
    assert_eq!(rec.moves.len(), 5);
    let rec = black_xboard(&["--resign-at", "3"], &start, "depth=1");
    assert_eq!(rec.verdict.result, GameResult::RedWins);
    assert_eq!(rec.verdict.termination, Termination::Resignation);
    assert_eq!(rec.moves.len(), 3);
    // A crash.
    let rec = black_xboard(&["--crash-at", "3"], &start, "depth=1");
    assert_eq!(
        rec.verdict.termination,
        Termination::Crash,
        "{:?}",
        rec.verdict
    );
    // A rejected legal move (the peer no longer follows the game): a protocol error.
    let rec = black_xboard(&["--reject-at", "2"], &start, "depth=1");
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::ProtocolError);
    assert!(
        rec.verdict.reason.contains("rejects a legal move")
            && rec.verdict.reason.contains("Illegal move"),
        "{:?}",
        rec.verdict
    );
}

#[test]
fn xboard_result_claims() {
    let start = Opening::startpos();
    // Black claims its own loss: a resignation.
    let rec = black_xboard(&["--claim-at", "1:1-0 {Black gives up}"], &start, "depth=1");
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::Resignation);
    // Black claims a win or a draw and moves: the referee decides, the game goes on.
    for claim in ["1:0-1 {Black mates}", "1:1/2-1/2 {Draw}"] {
        let args = ["--claim-at", claim];
        let rec = black_xboard(&args, &start, "depth=1");
        assert!(rec.moves.len() > 3, "{claim}: {:?}", rec.verdict);
        assert_ne!(rec.verdict.termination, Termination::Resignation);
    }
    // A draw claim and no move: no answer, and the claim is in the reason.
    let args = [
        "--claim-at",
        "1:1/2-1/2 {Draw by repetition}",
        "--hang-at",
        "1",
    ];
    let rec = within(Duration::from_secs(20), move || {
        black_xboard(&args, &Opening::startpos(), "depth=1")
    });
    assert_eq!(
        rec.verdict.termination,
        Termination::NoAnswer,
        "{:?}",
        rec.verdict
    );
    assert!(
        rec.verdict
            .reason
            .contains("claimed '1/2-1/2 {Draw by repetition}'"),
        "{:?}",
        rec.verdict
    );
}

#[test]
fn a_hanging_xboard_engine_loses_at_its_deadline() {
    for (tc, termination) in [
        ("depth=1", Termination::NoAnswer),
        ("0.5+0", Termination::TimeForfeit),
        ("st=1", Termination::TimeForfeit),
    ] {
        let t0 = Instant::now();
        let rec = within(Duration::from_secs(20), move || {
            black_xboard(&["--hang-at", "1"], &Opening::startpos(), tc)
        });
        assert_eq!(
            rec.verdict.result,
            GameResult::RedWins,
            "{tc}: {:?}",
            rec.verdict
        );
        assert_eq!(rec.verdict.termination, termination, "{tc}");
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "{tc}: {:?}",
            t0.elapsed()
        );
    }
}

#[test]
fn xboard_openings_from_a_fen_need_setboard() {
    let mate = opening("4k4/R8/9/9/9/9/9/9/9/1R1K5 w");
    let log = temp_path("xboard-setboard.log");
    let s = settings("depth=1", RuleChoice::Chinese);
    let args = ["--line", "b0b9", "--log", log.to_str().unwrap()];
    let rec = play_as((Protocol::Xboard, &args), (Protocol::Uci, &[]), &mate, &s);
    assert_eq!(rec.verdict.result, GameResult::RedWins, "{:?}", rec.verdict);
    assert_eq!(rec.verdict.termination, Termination::Rules);
    assert!(
        log_lines(&log).contains(&format!("setboard {}", mate.fen)),
        "{:?}",
        log_lines(&log)
    );
    // setboard=0: the game fails with a clear reason instead of playing the start position.
    let no_setboard = ["--features", "feature setboard=0 ping=1 done=1"];
    let rec = play_as(
        (Protocol::Xboard, &no_setboard),
        (Protocol::Uci, &[]),
        &mate,
        &s,
    );
    assert_eq!(
        rec.verdict.result,
        GameResult::BlackWins,
        "{:?}",
        rec.verdict
    );
    assert_eq!(rec.verdict.termination, Termination::ProtocolError);
    assert!(
        rec.verdict.reason.contains("setboard=0"),
        "{:?}",
        rec.verdict
    );
    assert!(rec.moves.is_empty());
}

#[test]
fn xboard_handshakes_without_done() {
    // Features but never `done`: the client waits FEATURE_WAIT, then goes on.
    let t0 = Instant::now();
    let spec = fake(
        "x",
        Protocol::Xboard,
        &["--features", "feature myname=\"NoDone\" ping=1 setboard=1"],
    );
    let e = EngineProcess::start(&spec).unwrap();
    let waited = t0.elapsed();
    assert!(waited >= engine_process::FEATURE_WAIT, "{waited:?}");
    assert!(
        waited < engine_process::FEATURE_WAIT + Duration::from_secs(3),
        "{waited:?}"
    );
    assert_eq!(e.id_name(), Some("NoDone"));
    drop(e);
    // No features at all (protocol version 1, no ping): it still plays a game.
    let rec = black_xboard(&["--features", ""], &opening("h2e2"), "depth=1");
    assert_eq!(
        rec.verdict.termination,
        Termination::Rules,
        "{:?}",
        rec.verdict
    );
    // done=0 and never done=1: the handshake times out.
    let t0 = Instant::now();
    let started = within(Duration::from_secs(30), || {
        let spec = fake(
            "x",
            Protocol::Xboard,
            &["--features", "feature done=0 ping=1"],
        );
        EngineProcess::start(&spec).map(|_| ())
    });
    assert_eq!(started, Err(EngineFault::Timeout));
    assert!(t0.elapsed() >= engine_process::HANDSHAKE_TIMEOUT);
    // An engine of other variants only, and one that wants SAN (rejected).
    let spec = fake(
        "x",
        Protocol::Xboard,
        &["--features", "feature variants=\"normal,shogi\" done=1"],
    );
    match EngineProcess::start(&spec) {
        Err(EngineFault::Protocol(why)) => assert!(why.contains("xiangqi"), "{why}"),
        other => panic!("{:?}", other.map(|_| ())),
    }
    let log = temp_path("xboard-san.log");
    let spec = fake(
        "x",
        Protocol::Xboard,
        &[
            "--features",
            "feature san=1 done=1",
            "--log",
            log.to_str().unwrap(),
        ],
    );
    drop(EngineProcess::start(&spec).unwrap());
    assert!(log_lines(&log).contains(&"rejected san".to_string()));
}

#[test]
fn chuhan_match_with_an_xboard_engine() {
    let pgn = temp_path("xboard.pgn");
    let pids = temp_path("xboard.pids");
    let book = temp_path("xboard-book.txt");
    std::fs::write(&book, "h2e2 h9g7\n").unwrap();
    let pidfile = format!("arg={}", pids.to_str().unwrap());
    let run = |features: &str, tc: &str| {
        let _ = std::fs::remove_file(&pids);
        Command::new(CHUHAN)
            .args(["match", "-engine", &format!("cmd={}", *FAKE), "name=xb"])
            .args(["proto=xboard", "arg=--random", "arg=--pidfile", &pidfile])
            .args(["arg=--features", &format!("arg={features}")])
            .args([
                "-engine",
                &format!("cmd={}", *FAKE),
                "name=uci",
                "proto=uci",
            ])
            .args([
                "arg=--random",
                "-tc",
                tc,
                "-games",
                "4",
                "-concurrency",
                "1",
            ])
            .args(["-openings", book.to_str().unwrap()])
            .args(["-pgnout", pgn.to_str().unwrap()])
            .output()
            .unwrap()
    };
    let out = run("feature ping=1 done=1", "3+0.05");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("Match finished: 4 games"), "{stdout}");
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("TimeControl"), Some("3+0.05"));
        assert!(g.moves.len() >= 2);
    }
    // Started once, reused for all four games.
    assert_eq!(log_lines(&pids).len(), 1);
    // reuse=0: a fresh process for every game.
    let out = run("feature ping=1 reuse=0 done=1", "3+0.05");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(log_lines(&pids).len(), 4);
    // A node count without nps=1: the match stops before its first game.
    let out = run("feature ping=1 done=1", "nodes=1000");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("match aborted: engine 'xb' cannot play at 1000 nodes")
            && stderr.contains("nps=1"),
        "{stderr}"
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("[1/"));
}

#[test]
fn time_odds_show_in_the_header_and_in_each_sides_pgn_tag() {
    let pgn = temp_path("odds.pgn");
    let book = temp_path("odds-book.txt");
    std::fs::write(&book, "h2e2 h9g7\n").unwrap();
    let _ = std::fs::remove_file(&pgn);
    let engine = |name: &str| {
        [
            "-engine".to_string(),
            format!("cmd={}", *FAKE),
            format!("name={name}"),
            "proto=uci".to_string(),
            "arg=--random".to_string(),
        ]
    };
    let out = Command::new(CHUHAN)
        .arg("match")
        .args(engine("fast"))
        .arg("tc=1+0.01")
        .args(engine("slow"))
        .args(["-tc", "3+0.05", "-games", "2", "-concurrency", "1"])
        .args(["-openings", book.to_str().unwrap()])
        .args(["-pgnout", pgn.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("| 3+0.05, fast 1+0.01 |"), "{stdout}");
    let games = read_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    assert_eq!(games.len(), 2);
    for g in &games {
        let clock = |side| match g.tag(side) {
            Some("fast") => "1+0.01",
            _ => "3+0.05",
        };
        assert_eq!(g.tag("RedTimeControl"), Some(clock("Red")), "{g:?}");
        assert_eq!(g.tag("BlackTimeControl"), Some(clock("Black")));
        assert_eq!(g.tag("TimeControl"), None);
    }
}
