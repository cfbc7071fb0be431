//! `chuhan spsa` from the command line: a short run plays its games, writes a state and a
//! parameter file the engine reads, resumes where it stopped, and bad input is a clear error
//! with a non-zero exit.

use chuhan::search::params::SearchParams;

mod common;

use common::{run_chuhan, scratch, text};

#[test]
fn a_short_run_writes_its_state_and_resumes_from_it() {
    let dir = scratch("spsa-run");
    let state = dir.join("state");
    let args = |iterations: &str| {
        vec![
            "spsa".to_string(),
            text(&state).to_string(),
            "--iterations".into(),
            iterations.into(),
            "--tc".into(),
            "depth=2".into(),
            "--params".into(),
            "rfp_margin,lmr_base".into(),
        ]
    };
    let run = |iterations: &str| {
        let a = args(iterations);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run_chuhan(&a)
    };
    let (code, out, err) = run("2");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("iteration ").count(), 2, "{out}");
    assert!(out.contains("iteration 2/2: plus W "), "{out}");
    let saved = std::fs::read_to_string(&state).unwrap();
    assert!(saved.contains("\niteration 2\n"), "{saved}");
    assert!(saved.contains("\nrfp_margin ") && saved.contains("\nlmr_base "));
    // The rounded values are a parameter file the engine reads.
    let params = std::fs::read_to_string(dir.join("state.params")).unwrap();
    let p = SearchParams::from_text(&params).unwrap();
    assert_eq!(p.null_base, SearchParams::DEFAULT.null_base);
    // The same command with more iterations goes on from the third.
    let (code, out, err) = run("3");
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("iteration 3/3:"), "{out}");
    assert!(std::fs::read_to_string(&state)
        .unwrap()
        .contains("\niteration 3\n"));
    // Done already: nothing to play.
    let (code, out, _) = run("3");
    assert_eq!(code, 0);
    assert!(out.starts_with("3 iterations done"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_spsa_input_fails_cleanly() {
    let dir = scratch("spsa-bad");
    let broken = dir.join("broken");
    std::fs::write(&broken, "iteration 4\nrfp_margin lots\n").unwrap();
    let other = dir.join("other");
    std::fs::write(&other, "iteration 4\nrfp_margin 90\n").unwrap();
    let (broken, other) = (text(&broken), text(&other));
    for (args, says) in [
        (vec!["spsa"], "usage: chuhan spsa"),
        (
            vec!["spsa", "s", "--iterations", "-3"],
            "bad --iterations '-3'",
        ),
        (
            vec!["spsa", "s", "--params", "nope"],
            "unknown parameter 'nope'",
        ),
        (vec!["spsa", "s", "--tc", "soon"], "soon"),
        (
            vec!["spsa", broken],
            "line 2: bad value 'lots' for 'rfp_margin'",
        ),
        (
            vec!["spsa", other, "--params", "lmr_base"],
            "tunes rfp_margin but --params asks for lmr_base",
        ),
        (
            vec![
                "spsa",
                other,
                "--params",
                "rfp_margin",
                "--engine",
                "/nonexistent/engine",
            ],
            "cannot be started",
        ),
    ] {
        let (code, _, err) = run_chuhan(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // A failed run leaves the state as it was.
    assert_eq!(
        std::fs::read_to_string(other).unwrap(),
        "iteration 4\nrfp_margin 90\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
