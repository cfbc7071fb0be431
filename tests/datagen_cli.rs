//! `chuhan datagen` from the command line: a small run written through `FILE.partial`, the
//! file tools over its output, and bad files refused with a message and a non-zero exit.

mod common;

use common::{run_chuhan as chuhan, scratch, text};

#[test]
fn a_run_and_the_tools_over_its_file() {
    let dir = scratch("datagen-cli");
    let data = dir.join("data.bin");
    let (code, out, err) = chuhan(&[
        "datagen",
        "-o",
        text(&data),
        "--games",
        "2",
        "--nodes",
        "200",
        "--max-plies",
        "60",
        "--threads",
        "2",
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("wrote ") && out.contains("from 2 games"),
        "{out}"
    );
    assert!(err.contains("positions/s"), "{err}");
    let bytes = std::fs::read(&data).unwrap();
    assert!(!bytes.is_empty() && bytes.len().is_multiple_of(32));
    assert!(!dir.join("data.bin.partial").exists());
    let n = bytes.len() / 32;

    let (code, out, err) = chuhan(&["datagen", "count", text(&data)]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!(": {n} positions")), "{out}");

    // The same run again is refused: the output exists.
    let (code, _, err) = chuhan(&["datagen", "-o", text(&data), "--games", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("exists"), "{err}");

    let twice = dir.join("twice.bin");
    let (code, out, err) = chuhan(&["datagen", "merge", text(&twice), text(&data), text(&data)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("merged {} positions", 2 * n)),
        "{out}"
    );
    // De-duplicated: the first record of each position (board and side: all but bytes 28..31).
    let mut unique: Vec<&[u8]> = Vec::new();
    for r in bytes.chunks(32) {
        if !unique.iter().any(|u| u[..28] == r[..28] && u[31] == r[31]) {
            unique.push(r);
        }
    }
    let once = dir.join("once.bin");
    let (code, out, err) = chuhan(&["datagen", "dedup", text(&twice), text(&once)]);
    assert_eq!(code, 0, "{err}");
    let says = format!(
        "kept {} positions, dropped {} ",
        unique.len(),
        2 * n - unique.len()
    );
    assert!(out.contains(&says), "{out}");
    assert_eq!(std::fs::read(&once).unwrap(), unique.concat());
    let shuffled = dir.join("shuffled.bin");
    let args = [
        "datagen",
        "shuffle",
        text(&once),
        text(&shuffled),
        "--seed",
        "4",
    ];
    let (code, _, err) = chuhan(&args);
    assert_eq!(code, 0, "{err}");
    let mut b: Vec<Vec<u8>> = std::fs::read(&shuffled)
        .unwrap()
        .chunks(32)
        .map(<[u8]>::to_vec)
        .collect();
    b.sort();
    unique.sort();
    assert_eq!(b, unique, "the shuffle holds the same records");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_files_and_arguments_fail_cleanly() {
    let dir = scratch("datagen-cli-bad");
    let short = dir.join("short.bin");
    std::fs::write(&short, [0u8; 33]).unwrap();
    let out = dir.join("out.bin");
    for (args, says) in [
        (vec!["datagen"], "needs -o FILE"),
        (
            vec!["datagen", "-o", text(&out)],
            "--games N or --positions N",
        ),
        (
            vec![
                "datagen",
                "-o",
                text(&out),
                "--games",
                "1",
                "--shard",
                "0/2",
            ],
            "bad shard '0/2'",
        ),
        (vec!["datagen", "count", text(&short)], "33 bytes"),
        (
            vec!["datagen", "count", "/nonexistent/d.bin"],
            "cannot open",
        ),
        (
            vec!["datagen", "dedup", text(&short), text(&out)],
            "33 bytes",
        ),
        (
            vec![
                "datagen",
                "shuffle",
                text(&short),
                text(&out),
                "--seed",
                "1",
            ],
            "33 bytes",
        ),
        (
            vec!["datagen", "merge", text(&out), text(&short)],
            "33 bytes",
        ),
    ] {
        let (code, _, err) = chuhan(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert!(!out.exists() && !dir.join("out.bin.partial").exists());
    std::fs::remove_dir_all(dir).unwrap();
}
