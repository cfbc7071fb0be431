//! Tournaments through the built binary: `chuhan match rate` on PGN files, bad input included.

use std::path::PathBuf;
use std::process::{Command, Output};

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
    ];
    for (args, why) in cases {
        let out = chuhan(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}
