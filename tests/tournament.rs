//! Tournaments through the built binary: `-gauntlet`, `-shard K/N` (two shards play exactly the
//! games of the whole run), and `chuhan match rate` on PGN files, bad input included.

mod common;

use chuhan::tools::match_runner::pgn::{read_pgn, PgnGame};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::LazyLock;

/// The fake engine: an example, found beside this test (`common::fake_engine`).
static FAKE: LazyLock<String> = LazyLock::new(common::fake_engine);
const CHUHAN: &str = env!("CARGO_BIN_EXE_chuhan");

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chuhan-tournament-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    let _ = std::fs::remove_file(&p);
    p
}

fn chuhan(args: &[&str]) -> Output {
    Command::new(CHUHAN).args(args).output().unwrap()
}

fn stdout_of(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Three fake engines (two pick moves by the position's key, one the first legal move: all
/// deterministic, so a game replayed is the same game) on two openings, 4 games a pairing,
/// PGN to `pgn`; the match's output. Beta, driven by UCI so that its ply count runs from the
/// root, resigns at ply 9, which is its move only as Black: it loses its games as Black and
/// the others (which repeat) are drawn.
fn fake_tournament(pgn: &Path, extra: &[&str]) -> String {
    let book = pgn.with_extension("book");
    std::fs::write(&book, "h2e2 h9g7\nc3c4 c6c5\n").unwrap();
    let engine = |name: &str, random: bool| {
        let mut e = vec![
            "-engine".to_string(),
            format!("cmd={}", *FAKE),
            format!("name={name}"),
        ];
        if random {
            e.push("arg=--random".to_string());
        }
        if name == "beta" {
            e.extend(["proto=uci", "arg=--resign-at", "arg=9"].map(str::to_string));
        }
        e
    };
    let out = Command::new(CHUHAN)
        .arg("match")
        .args(engine("alpha", true))
        .args(engine("beta", true))
        .args(engine("gamma", false))
        .args(["-tc", "depth=1", "-games", "4", "-concurrency", "2"])
        .args(["-openings", book.to_str().unwrap()])
        .args(["-pgnout", pgn.to_str().unwrap()])
        .args(extra)
        .output()
        .unwrap();
    stdout_of(&out)
}

fn games(pgn: &Path) -> Vec<PgnGame> {
    let mut g = read_pgn(&std::fs::read_to_string(pgn).unwrap()).unwrap();
    g.sort_by_key(|g| g.tag("Round").unwrap().parse::<usize>().unwrap());
    g
}

/// What makes a game that game: its number, players, opening, moves and result.
fn identity(g: &PgnGame) -> (String, String, String, String, String, String) {
    let moves: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
    let tag = |k: &str| g.tag(k).unwrap_or("").to_string();
    (
        tag("Round"),
        tag("Red"),
        tag("Black"),
        g.fen.clone(),
        moves.join(" "),
        tag("Result"),
    )
}

#[test]
fn two_shards_play_exactly_the_games_of_the_whole_run() {
    let (whole, one, two) = (
        temp_path("whole.pgn"),
        temp_path("shard1.pgn"),
        temp_path("shard2.pgn"),
    );
    let whole_out = fake_tournament(&whole, &[]);
    let out1 = fake_tournament(&one, &["-shard", "1/2"]);
    let out2 = fake_tournament(&two, &["-shard", "2/2"]);
    assert!(whole_out.contains("[12/12]"), "{whole_out}");
    assert!(out1.contains("6 games (shard 1/2 of 12)"), "{out1}");
    assert!(out1.contains("[6/6]") && !out1.contains("[7/"), "{out1}");
    assert!(out2.contains("[6/6]") && !out2.contains("[7/"), "{out2}");

    let (whole_pgn, one_pgn, two_pgn) = (whole, one, two);
    let whole = games(&whole_pgn);
    let (one, two) = (games(&one_pgn), games(&two_pgn));
    assert_eq!(whole.len(), 12);
    let rounds = |gs: &[PgnGame]| -> Vec<String> {
        gs.iter()
            .map(|g| g.tag("Round").unwrap().to_string())
            .collect()
    };
    // Pairs p = 0, 2, 4 (games 1-2, 5-6, 9-10) to shard 1, pairs 1, 3, 5 to shard 2.
    assert_eq!(rounds(&one), ["1", "2", "5", "6", "9", "10"]);
    assert_eq!(rounds(&two), ["3", "4", "7", "8", "11", "12"]);
    let mut joined: Vec<_> = one.iter().chain(&two).map(identity).collect();
    joined.sort_by_key(|g| g.0.parse::<usize>().unwrap());
    let whole_ids: Vec<_> = whole.iter().map(identity).collect();
    assert_eq!(joined, whole_ids);

    // Rated together, the shards give the whole run's list, which the round robin also printed.
    let rate = |files: &[&Path]| {
        let mut args = vec!["match", "rate"];
        args.extend(files.iter().map(|p| p.to_str().unwrap()));
        stdout_of(&chuhan(&args))
    };
    let from_whole = rate(&[&whole_pgn]);
    assert_eq!(rate(&[&one_pgn, &two_pgn]), from_whole);
    assert!(
        from_whole.starts_with("Ratings: 3 players, 12 games"),
        "{from_whole}"
    );
    // Beta scored 1 of 4 against each, alpha and gamma drew: by symmetry alpha = gamma = x and
    // beta = -2x, 3x = 400 log10 3 = 190.85.
    let head = |name: &str| line(&from_whole, name)[..6].join(" ");
    assert_eq!(head("alpha"), "1 alpha +63.6 172.2 8 62.5%", "{from_whole}");
    assert_eq!(head("gamma"), "2 gamma +63.6 172.2 8 62.5%", "{from_whole}");
    assert_eq!(head("beta"), "3 beta -127.2 185.3 8 25.0%", "{from_whole}");
    assert!(whole_out.contains(&from_whole), "{whole_out}\n{from_whole}");
}

#[test]
fn a_gauntlet_plays_the_first_engine_against_each_other_only() {
    let pgn = temp_path("gauntlet.pgn");
    let out = fake_tournament(&pgn, &["-gauntlet"]);
    assert!(out.contains("alpha vs beta vs gamma (gauntlet)"), "{out}");
    assert!(out.contains("[8/8]") && !out.contains("[9/"), "{out}");
    let gs = games(&pgn);
    assert_eq!(gs.len(), 8);
    let with = |name: &str| {
        gs.iter()
            .filter(|g| g.tag("Red") == Some(name) || g.tag("Black") == Some(name))
            .count()
    };
    assert_eq!((with("alpha"), with("beta"), with("gamma")), (8, 4, 4));
    // The list still rates beta against gamma, through alpha.
    assert!(out.contains("Ratings: 3 players, 8 games"), "{out}");
}

/// A PGN file of `n` games, Red `red` against Black `black`, each with `result`.
fn pgn_games(red: &str, black: &str, result: &str, n: usize) -> String {
    format!("[Red \"{red}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\n1. C2.5 {result}\n\n")
        .repeat(n)
}

/// The fields of the player's line in a rating list.
fn line(list: &str, name: &str) -> Vec<String> {
    list.lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("no {name} in {list}"))
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn rate_gives_the_hand_computed_numbers() {
    // 7 wins to 3 losses, colours mixed and spread over two files: a gap of 400 log10(7/3) =
    // 147.19, ±73.60 from the mean. The gap's standard error is 1/√(10 K² 0.7 0.3) = 119.88
    // (K = ln 10 / 400), so ±1.96 · 119.88 / 2 = 117.48 for each rating from the mean; pinned,
    // b at 1000 ± 0 and a at 1147.19 ± 234.95.
    let (f1, f2) = (temp_path("seven.pgn"), temp_path("three.pgn"));
    std::fs::write(
        &f1,
        pgn_games("a", "b", "1-0", 4) + &pgn_games("b", "a", "0-1", 3),
    )
    .unwrap();
    std::fs::write(
        &f2,
        pgn_games("a", "b", "0-1", 2) + &pgn_games("b", "a", "1-0", 1),
    )
    .unwrap();
    let (f1, f2) = (f1.to_str().unwrap(), f2.to_str().unwrap());
    let out = stdout_of(&chuhan(&["match", "rate", f1, f2]));
    // # player Elo ±95% games score draws
    assert_eq!(
        line(&out, "a")[..6],
        ["1", "a", "+73.6", "117.5", "10", "70.0%"],
        "{out}"
    );
    assert_eq!(
        line(&out, "b")[..6],
        ["2", "b", "-73.6", "117.5", "10", "30.0%"],
        "{out}"
    );
    assert!(
        out.contains("a      b          10 games  +7 =0 -3   70.0%  gap +147.2"),
        "{out}"
    );
    assert!(!out.contains("Prior"), "{out}");
    let out = stdout_of(&chuhan(&["match", "rate", "-anchor", "b=1000", f1, f2]));
    assert!(out.contains("b pinned at 1000"), "{out}");
    assert_eq!(line(&out, "a")[2..4], ["+1147.2", "235.0"], "{out}");
    assert_eq!(line(&out, "b")[2..4], ["+1000.0", "0.0"], "{out}");

    // A clean sweep: the stated prior, finite numbers.
    let sweep = temp_path("sweep.pgn");
    std::fs::write(&sweep, pgn_games("a", "b", "1-0", 10)).unwrap();
    let out = stdout_of(&chuhan(&["match", "rate", sweep.to_str().unwrap()]));
    assert!(out.contains("Prior: a, b won or lost every game"), "{out}");
    assert!(out.contains("gap +416.6"), "{out}"); // 400 log10 11
    assert_eq!(line(&out, "a")[2..4], ["+208.3", "177.8"], "{out}");
    for t in out.split_whitespace() {
        if let Ok(x) = t.trim_end_matches('%').parse::<f64>() {
            assert!(x.is_finite(), "{out}");
        }
    }
}

#[test]
fn bad_input_is_a_message_and_a_failure() {
    let no_result = temp_path("no-result.pgn");
    std::fs::write(&no_result, "[Red \"a\"]\n[Black \"b\"]\n\n1. C2.5 1-0\n").unwrap();
    let not_utf8 = temp_path("gbk.pgn");
    std::fs::write(&not_utf8, b"[Red \"\xba\xec\"]\n").unwrap();
    let good = temp_path("good.pgn");
    std::fs::write(&good, pgn_games("a", "b", "1/2-1/2", 2)).unwrap();
    let (no_result, not_utf8, good) = (
        no_result.to_str().unwrap(),
        not_utf8.to_str().unwrap(),
        good.to_str().unwrap(),
    );
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["match", "rate"], "no PGN files"),
        (
            vec!["match", "rate", "/nonexistent.pgn"],
            "cannot read '/nonexistent.pgn'",
        ),
        (vec!["match", "rate", no_result], "line 1 has no Result tag"),
        (vec!["match", "rate", not_utf8], "is not UTF-8"),
        (
            vec!["match", "rate", "-anchor", "a", good],
            "bad -anchor 'a'",
        ),
        (
            vec!["match", "rate", "-anchor", "z=5", good],
            "the anchor 'z'",
        ),
        (vec!["match", "rate", good, "-anchor"], "-anchor needs"),
        (
            vec![
                "match", "-engine", "cmd=x", "-engine", "cmd=y", "-shard", "0/2",
            ],
            "bad -shard '0/2'",
        ),
        (
            vec![
                "match", "-engine", "cmd=x", "-engine", "cmd=y", "-shard", "3/2",
            ],
            "bad -shard '3/2'",
        ),
    ];
    for (args, why) in cases {
        let out = chuhan(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
