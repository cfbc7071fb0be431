//! The `chuhan` command line as a user meets it: bad input (bytes that are not UTF-8, numbers
//! out of range) gets a message and a non-zero exit, never a panic, and `judge` goes on past a
//! bad line.

use std::io::Write;
use std::process::{Command, Output, Stdio};

const CHUHAN: &str = env!("CARGO_BIN_EXE_chuhan");

/// Run `chuhan` with `args`, feeding it `stdin`.
fn chuhan(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(CHUHAN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn judge_goes_on_past_a_line_that_is_not_utf8() {
    let input =
        b"startpos moves h2e2\n\xff\xfe startpos\n4k4/R8/9/9/9/9/9/9/9/1R1K5 w moves b0b9\n";
    let out = chuhan(&["judge"], input);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert!(lines[0].starts_with("ongoing"), "{stdout}");
    assert_eq!(lines[1], "error: line 2 is not UTF-8");
    assert!(lines[2].starts_with("red-wins"), "{stdout}");
}

#[test]
#[cfg(unix)]
fn an_argument_that_is_not_utf8_is_an_error() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"de\xffpth");
    for args in [
        vec![OsStr::new("bench"), bad],
        vec![bad],
        vec![OsStr::new("match"), bad],
    ] {
        let out = Command::new(CHUHAN).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(
            stderr.contains("argument 'de\u{fffd}pth' is not UTF-8"),
            "{stderr}"
        );
    }
}

#[test]
fn match_numbers_out_of_range_are_errors() {
    // Each of these once panicked (overflow), ran "forever" or was quietly replaced.
    let cases = [
        "-games 18446744073709551615",
        "-games 0",
        "-games 1000001",
        "-concurrency 0",
        "-concurrency 18446744073709551615",
        "-tc st=1e300",
        "-tc 1e300+0",
        "-tc 1+1e300",
        "-margin 18446744073709551615",
        "-timeout 1e300",
        "-timeout -5",
        "-timeout nan",
        "-timeout 0",
        "-sprt elo0=0 elo1=inf",
        "-sprt elo0=-1e308 elo1=1e308",
    ];
    for case in cases {
        let mut args = vec!["match", "-engine", "cmd=a", "-engine", "cmd=b"];
        args.extend(case.split_whitespace());
        let out = chuhan(&args, b"");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{case}: {stderr}");
        assert!(!stderr.contains("panicked"), "{case}: {stderr}");
        // Refused while reading the arguments, before any engine is started.
        assert!(!stderr.contains("match aborted"), "{case}: {stderr}");
        assert!(stderr.starts_with("chuhan: "), "{case}: {stderr}");
    }
    let out = chuhan(
        &[
            "match",
            "-engine",
            "cmd=a",
            "tc=st=1e300",
            "-engine",
            "cmd=b",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad number of seconds"));
}

#[test]
fn a_book_built_from_games_is_shown_and_loaded_by_the_engine() {
    let dir = std::env::temp_dir().join(format!("chuhan-cli-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. C2.5 H8+7 2. H2+3 1-0\n\n[Result \"0-1\"]\n\n1. c3c4 c6c5 0-1\n",
    )
    .unwrap();
    let book = dir.join("games.book");
    let out = chuhan(
        &[
            "book",
            "build",
            "--out",
            book.to_str().unwrap(),
            "--games",
            pgn.to_str().unwrap(),
        ],
        b"",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("4 positions, 5 moves"), "{said}");
    let shown = chuhan(&["book", "show", book.to_str().unwrap(), "h2e2"], b"");
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("h9g7"), "{shown}");
    // The engine plays from it: after c3c4, the reply that won (h9g7 lost: weight 0, known
    // but never played).
    assert!(
        shown.contains("     0      -      -        -  h9g7"),
        "{shown}"
    );
    let session = format!(
        "ucci\nsetoption bookfiles {}\nposition startpos moves c3c4\ngo time 60000\nquit\n",
        book.display()
    );
    let out = chuhan(&[], session.as_bytes());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("info string book move c6c5"), "{said}");
    assert!(said.contains("bestmove c6c5"), "{said}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly() {
    // `chuhan book show … | head`: the pipe is closed before chuhan writes its first line.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let book = concat!(env!("CARGO_MANIFEST_DIR"), "/book/chuhan.book");
    let out = Command::new(CHUHAN)
        .args(["book", "show", book, "--depth", "2"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn book_commands_refuse_bad_input() {
    let cases: [&[&str]; 10] = [
        &["book"],
        &["book", "build", "--games", "x.pgn"],
        &["book", "build", "--out", "/tmp/x.book"],
        &[
            "book",
            "build",
            "--out",
            "/tmp/x.book",
            "--analyse",
            "--nodes",
            "-5",
        ],
        &[
            "book",
            "build",
            "--out",
            "/tmp/x.book",
            "--analyse",
            "--margin",
            "0",
        ],
        &["book", "show", "/nonexistent/chuhan.book"],
        &["book", "show"],
        &["book", "show", "book/chuhan.book", "--depth", "0"],
        &["book", "show", "book/chuhan.book", "h2e2", "h2e2"],
        &["book", "show", "book/chuhan.book", "--depth"],
    ];
    for args in cases {
        let out = chuhan(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("chuhan: "), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn every_command_prints_its_usage_on_help() {
    let cases: [(&[&str], &str); 17] = [
        (&["help"], "chuhan COMMAND --help"),
        (&["--help"], "chuhan COMMAND --help"),
        (&["bench", "--help"], "chuhan bench"),
        (&["perft", "-h"], "chuhan perft"),
        (&["judge", "--help"], "chuhan judge"),
        (&["match", "-help"], "chuhan match -engine"),
        (
            &["match", "-engine", "cmd=a", "--help"],
            "chuhan match -engine",
        ),
        (&["match", "rate", "-h"], "chuhan match rate"),
        (&["tune", "--help"], "chuhan tune gen"),
        (&["spsa", "--help"], "chuhan spsa"),
        (&["book", "--help"], "chuhan book build"),
        (&["book", "show", "--help"], "chuhan book show"),
        (&["datagen", "--help"], "chuhan datagen -o FILE"),
        (&["datagen", "count", "-h"], "chuhan datagen count"),
        (&["datagen", "wdl", "--help"], "chuhan datagen wdl"),
        (&["train", "--help"], "chuhan train --out DIR"),
        (&["train", "help"], "chuhan train --out DIR"),
    ];
    for (args, says) in cases {
        let out = chuhan(args, b"");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stdout}");
        assert!(stdout.contains(says), "{args:?}: {stdout}");
    }
}

#[test]
fn flags_take_one_dash_or_two() {
    // `chuhan match`'s cutechess-cli spelling and the GNU one are the same flag everywhere.
    for args in [
        ["perft", "1", "--bogus"],
        ["judge", "-rules", "nonsense"],
        ["judge", "--rules", "nonsense"],
    ] {
        let out = chuhan(&args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    for args in [["judge", "-explain"], ["judge", "--explain"]] {
        let out = chuhan(&args, b"startpos moves h2e2\n");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("ongoing"));
    }
}
