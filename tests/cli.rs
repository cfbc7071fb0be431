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
