//! `chuhan tune` from the command line: bad input is a clear error with a non-zero exit.

use std::process::Command;

fn chuhan(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_chuhan"))
        .args(args)
        .output()
        .expect("run chuhan");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn bad_tune_input_fails_cleanly() {
    let dir = std::env::temp_dir().join(format!("chuhan-tune-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("bad.txt");
    std::fs::write(&data, "3k5/9/9/9/9/9/9/9/9/R3K4 w;1\nnot a fen;0.5\n").unwrap();
    let data = data.to_str().unwrap();
    for (args, says) in [
        (vec!["tune"], "usage: chuhan tune"),
        (
            vec!["tune", "gen", "many", "out.txt"],
            "bad game count 'many'",
        ),
        (vec!["tune", "fit", "/nonexistent/x.txt"], "cannot open"),
        (vec!["tune", "fit", data], "line 2"),
    ] {
        let (code, err) = chuhan(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
